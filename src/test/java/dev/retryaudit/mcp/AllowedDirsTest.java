package dev.retryaudit.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Only regular files under the allowed directories are readable, whatever the path or its links say, and whatever
 * is renamed while a file is opened; an outside path gets one message whether it exists or not.
 */
@Timeout(300)
class AllowedDirsTest {
    static final String OUTSIDE = ": outside the directories this server may read (--allow-dir)";

    @TempDir
    Path tmp;

    @Test
    void readsFilesUnderTheDirectoriesOnly() throws IOException, ToolError {
        Path allowed = Files.createDirectories(tmp.resolve("allowed/sub")).getParent().toRealPath();
        Path inside = Files.writeString(allowed.resolve("sub/t.json"), "{}");
        Path secret = Files.writeString(tmp.resolve("secret.json"), "{}");
        Files.createSymbolicLink(allowed.resolve("link.json"), secret);
        Files.createSymbolicLink(allowed.resolve("dirlink"), tmp);
        Files.createSymbolicLink(allowed.resolve("dangling.json"), tmp.resolve("missing.json"));
        Files.createSymbolicLink(allowed.resolve("inlink.json"), Path.of("sub/t.json"));
        Files.createSymbolicLink(allowed.resolve("sub/up"), Path.of(".."));
        try (AllowedDirs dirs = new AllowedDirs(List.of(allowed), Duration.ofSeconds(5))) {
            assertThat(dirs.resolve("sub/t.json")).isEqualTo(inside.toRealPath());
            assertThat(dirs.resolve(inside.toString())).isEqualTo(inside.toRealPath());
            assertThat(dirs.resolve("inlink.json")).isEqualTo(inside.toRealPath());
            assertThat(dirs.resolve("sub/up/sub/./t.json")).isEqualTo(inside.toRealPath());
            assertThat(dirs.resolve("../allowed/sub/t.json")).isEqualTo(inside.toRealPath());
            for (String escape : List.of("link.json", "dirlink/secret.json", "../secret.json", secret.toString(),
                    "/etc/passwd", "sub/up/../secret.json", "..", "/")) {
                assertThatThrownBy(() -> dirs.resolve(escape)).as(escape).isInstanceOf(ToolError.class)
                        .hasMessage(escape + OUTSIDE);
            }
            // No existence oracle: a missing outside file reads as an existing one does.
            for (String missing : List.of("dangling.json", "dirlink/missing.json", "../missing.json",
                    tmp.resolve("missing.json").toString(), "/no/such/dir/x.json")) {
                assertThatThrownBy(() -> dirs.resolve(missing)).as(missing).hasMessage(missing + OUTSIDE);
            }
            assertThatThrownBy(() -> dirs.resolve("sub")).hasMessage("sub: not a file");
            assertThatThrownBy(() -> dirs.resolve("none.json")).hasMessage("none.json: no such file");
            assertThatThrownBy(() -> dirs.resolve("sub/t.json/x")).hasMessage("sub/t.json/x: no such file");
            assertThatThrownBy(() -> dirs.resolve(allowed.resolve("none.json").toString()))
                    .hasMessage(allowed.resolve("none.json") + ": no such file");
            assertThatThrownBy(() -> dirs.resolve("a\u0000b")).hasMessage("a\\u0000b: not a valid path");

            AllowedDirs.Opened opened = dirs.open("inlink.json");
            assertThat(opened.path()).isEqualTo(inside.toRealPath());
            assertThat(read(opened)).isEqualTo("{}");
        }
    }

    @Test
    void withoutDirectoriesNothingIsRead() throws IOException {
        try (AllowedDirs dirs = new AllowedDirs(List.of(), Duration.ofSeconds(5))) {
            assertThatThrownBy(() -> dirs.resolve("t.json"))
                    .hasMessageStartingWith("reading files is off: start the server with --allow-dir DIR");
        }
    }

    @Test
    void aFileSwappedForALinkToAnOutsideFileIsNeverReadThroughIt() throws Exception {
        Path allowed = Files.createDirectories(tmp.resolve("allowed")).toRealPath();
        Path secret = Files.writeString(tmp.resolve("secret.json"), "SECRET");
        Path t = allowed.resolve("t.json");
        Files.writeString(t, "INSIDE");
        AtomicBoolean stop = new AtomicBoolean();
        Thread flipper = new Thread(() -> {
            try {
                Path regular = allowed.resolve("next-file");
                Path link = allowed.resolve("next-link");
                for (int i = 0; i < 300 && !stop.get(); i++) {
                    Files.writeString(regular, "INSIDE");
                    Files.createSymbolicLink(link, secret);
                    Files.move(regular, t, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    Thread.sleep(0, 100_000);
                    Files.move(link, t, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    Thread.sleep(0, 100_000);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        Map<String, Integer> outcomes = new TreeMap<>();
        try (AllowedDirs dirs = new AllowedDirs(List.of(allowed), Duration.ofSeconds(5))) {
            flipper.start();
            while (flipper.isAlive()) {
                try {
                    assertThat(read(dirs.open("t.json"))).isEqualTo("INSIDE");
                    outcomes.merge("read", 1, Integer::sum);
                } catch (ToolError e) {
                    assertThat(e.getMessage()).isIn("t.json" + OUTSIDE, "t.json: no such file",
                            "t.json: not a file, or it changed while it was opened (a link or a FIFO put in its place); "
                                    + "nothing was read");
                    outcomes.merge(e.getMessage().substring(0, 20), 1, Integer::sum);
                }
            }
        } finally {
            stop.set(true);
            flipper.join();
        }
        assertThat(outcomes.get("read")).as(outcomes.toString()).isPositive();
        assertThat(outcomes.get("t.json: outside the ")).as(outcomes.toString()).isPositive();
        assertThat(outcomes.values().stream().mapToInt(Integer::intValue).sum()).isGreaterThan(300);
    }

    @Test
    @EnabledOnOs({OS.LINUX, OS.MAC})
    void aFileSwappedForAFifoBlocksNoCallAndLaterCallsRead() throws Exception {
        Path allowed = Files.createDirectories(tmp.resolve("allowed")).toRealPath();
        Path fifos = Files.createDirectories(tmp.resolve("fifos"));
        List<String> mkfifo = new ArrayList<>(List.of("mkfifo"));
        for (int i = 0; i < 300; i++) {
            mkfifo.add(fifos.resolve("f" + i).toString());
        }
        assertThat(new ProcessBuilder(mkfifo).inheritIO().start().waitFor()).isZero();
        Path t = allowed.resolve("t.json");
        Files.writeString(t, "INSIDE");
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger calls = new AtomicInteger();
        Thread flipper = new Thread(() -> {
            try {
                for (int i = 0; i < 300 && !stop.get(); i++) {
                    // Each swap waits for a call made since the last one, so that the calls race every
                    // swap however the two threads are scheduled.
                    awaitCall(calls, stop);
                    Path fifo = allowed.resolve("f" + i);
                    Files.move(fifos.resolve("f" + i), fifo);
                    Files.move(fifo, t, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    Path regular = Files.writeString(allowed.resolve("r"), "INSIDE");
                    Files.move(regular, t, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                }
                awaitCall(calls, stop);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        Map<String, Integer> outcomes = new TreeMap<>();
        try (AllowedDirs dirs = new AllowedDirs(List.of(allowed), Duration.ofMillis(200))) {
            flipper.start();
            while (flipper.isAlive()) {
                try {
                    assertThat(read(dirs.open("t.json"))).isEqualTo("INSIDE");
                    outcomes.merge("read", 1, Integer::sum);
                } catch (ToolError e) {
                    outcomes.merge(e.getMessage(), 1, Integer::sum);
                }
                calls.incrementAndGet();
            }
            flipper.join();
            assertThat(outcomes.values().stream().mapToInt(Integer::intValue).sum()).isGreaterThan(300);
            assertThat(outcomes.keySet()).as(outcomes.toString()).allMatch(k -> k.equals("read")
                    || k.equals("t.json: not a file")
                    || k.equals("t.json: not a file: it did not open within 200 ms, as a FIFO does until something "
                            + "writes to it")
                    || k.startsWith("t.json: not a file, or it changed while it was opened"));
            // Every call returned; those that met a FIFO mid-open left at most one waiting opener each.
            assertThat(read(dirs.open("t.json"))).isEqualTo("INSIDE");
        } finally {
            stop.set(true);
            flipper.join();
        }
    }

    /** Waits, at most 2 s, until a call is made after this one started waiting (or the test stops). */
    private static void awaitCall(AtomicInteger calls, AtomicBoolean stop) {
        int seen = calls.get();
        long until = System.nanoTime() + 2_000_000_000L;
        while (calls.get() == seen && System.nanoTime() < until && !stop.get()) {
            Thread.onSpinWait();
        }
    }

    private static String read(AllowedDirs.Opened opened) throws IOException {
        try (var ch = opened.channel()) {
            ByteBuffer b = ByteBuffer.allocate(64);
            while (ch.read(b) > 0) {
                // Read to the end.
            }
            return new String(b.array(), 0, b.position(), StandardCharsets.UTF_8);
        }
    }
}

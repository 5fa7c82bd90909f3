package dev.retryaudit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built jar with the files and streams a shell hands it: the report never replaces an input, a
 * device, a FIFO or a link; modes follow the umask; pipes, FIFOs, /dev/stdin and names the locale cannot
 * decode are read; lost stdout and a heap too small end in one line and a documented exit code.
 */
class FileHandlingIT {
    private static final Path JAR = Path.of("target/retry-audit.jar").toAbsolutePath();
    private static final Path SPANS = Path.of("examples/checkout-spans.jsonl").toAbsolutePath();

    @TempDir
    Path dir;

    record Run(int exit, String out, String err) {
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Runs {@code script} with sh in {@code dir}, where $JAVA, $JAR and $SPANS are set. */
    private Run sh(String script) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", script).directory(dir.toFile());
        pb.environment().put("JAVA", java());
        pb.environment().put("JAR", JAR.toString());
        pb.environment().put("SPANS", SPANS.toString());
        Process p = pb.start();
        p.getOutputStream().close();
        CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8),
                new String(err.join(), StandardCharsets.UTF_8));
    }

    private static byte[] readAll(InputStream in) {
        try {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void outputNamingAnInputIsRefusedAndTheInputKept() throws Exception {
        Files.copy(SPANS, dir.resolve("in.jsonl"));
        Files.createSymbolicLink(dir.resolve("link.jsonl"), dir.resolve("in.jsonl"));
        Files.writeString(dir.resolve("policy.json"), "{\"version\": 1}");
        byte[] before = Files.readAllBytes(dir.resolve("in.jsonl"));
        for (String script : List.of(
                "\"$JAVA\" -jar \"$JAR\" audit --output in.jsonl in.jsonl",
                "\"$JAVA\" -jar \"$JAR\" audit --output ./in.jsonl in.jsonl",
                "\"$JAVA\" -jar \"$JAR\" audit --output link.jsonl in.jsonl",
                "\"$JAVA\" -jar \"$JAR\" audit --output in.jsonl link.jsonl",
                "\"$JAVA\" -jar \"$JAR\" audit --output \"$PWD/in.jsonl\" - < in.jsonl")) {
            Run r = sh(script);
            assertThat(r.exit()).as(script + "\n" + r.err()).isEqualTo(64);
            assertThat(r.err()).as(script).contains("'--output'", "is the same file as the input")
                    .doesNotContain("Exception");
            assertThat(Files.readAllBytes(dir.resolve("in.jsonl"))).as(script).isEqualTo(before);
        }
        Run policy = sh("\"$JAVA\" -jar \"$JAR\" audit --policy policy.json --output ./policy.json in.jsonl");
        assertThat(policy.exit()).as(policy.err()).isEqualTo(64);
        assertThat(Files.readString(dir.resolve("policy.json"))).isEqualTo("{\"version\": 1}");
    }

    @Test
    void aFifoTargetIsWrittenAndStaysAFifo() throws Exception {
        assertThat(sh("mkfifo report.fifo").exit()).isZero();
        Run r = sh("cat report.fifo > got.json & \"$JAVA\" -jar \"$JAR\" audit --output report.fifo \"$SPANS\"; "
                + "rc=$?; wait; exit $rc");
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(Files.readString(dir.resolve("got.json"))).contains("\"passed\": false");
        assertThat(Files.isRegularFile(dir.resolve("report.fifo"))).isFalse();
        assertThat(sh("test -p report.fifo").exit()).isZero();
        assertThat(leftovers()).isEmpty();
    }

    @Test
    void aDeviceThatFailsIsWrittenDirectlyAndNotReplaced() throws Exception {
        Run r = sh("\"$JAVA\" -jar \"$JAR\" audit --output /dev/full \"$SPANS\"");
        assertThat(r.exit()).isEqualTo(74);
        assertThat(r.err()).contains("cannot write the report to /dev/full").doesNotContain("Exception");
        assertThat(sh("test -c /dev/full").exit()).isZero();
        Run stdout = sh("\"$JAVA\" -jar \"$JAR\" audit --output /dev/stdout \"$SPANS\"");
        assertThat(stdout.exit()).as(stdout.err()).isEqualTo(2);
        assertThat(stdout.out()).contains("\"passed\": false");
    }

    @Test
    void aSymbolicLinkIsFollowedAndKept() throws Exception {
        Files.createDirectory(dir.resolve("reports"));
        Files.writeString(dir.resolve("reports/real.json"), "old");
        Files.createSymbolicLink(dir.resolve("report.json"), Path.of("reports/real.json"));
        Run r = sh("\"$JAVA\" -jar \"$JAR\" audit --output report.json \"$SPANS\"");
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(Files.isSymbolicLink(dir.resolve("report.json"))).isTrue();
        assertThat(Files.readString(dir.resolve("reports/real.json"))).contains("\"passed\": false");
        assertThat(leftovers()).isEmpty();
    }

    @Test
    void aNewReportFollowsTheUmaskAndAReplacedOneKeepsItsMode() throws Exception {
        Run created = sh("umask 027; \"$JAVA\" -jar \"$JAR\" audit --output new.json \"$SPANS\"");
        assertThat(created.exit()).as(created.err()).isEqualTo(2);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("new.json"))))
                .isEqualTo("rw-r-----");
        Files.writeString(dir.resolve("old.json"), "old");
        Files.setPosixFilePermissions(dir.resolve("old.json"), PosixFilePermissions.fromString("rw-rw-r--"));
        Run replaced = sh("umask 077; \"$JAVA\" -jar \"$JAR\" audit --output old.json \"$SPANS\"");
        assertThat(replaced.exit()).as(replaced.err()).isEqualTo(2);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("old.json"))))
                .isEqualTo("rw-rw-r--");
        assertThat(Files.readString(dir.resolve("old.json"))).contains("\"passed\": false");
        if (sh("test \"$(id -u)\" = 0").exit() == 0) {
            assertThat(sh("chown 65534:65534 old.json").exit()).isZero();
            Run asRoot = sh("\"$JAVA\" -jar \"$JAR\" audit --output old.json \"$SPANS\"");
            assertThat(asRoot.exit()).as(asRoot.err()).isEqualTo(2);
            assertThat(sh("stat -c %u:%g old.json").out().strip()).isEqualTo("65534:65534");
        }
    }

    @Test
    void fifosProcessSubstitutionAndDevStdinAreRead() throws Exception {
        Run fifo = sh("mkfifo in.fifo; cat \"$SPANS\" > in.fifo & \"$JAVA\" -jar \"$JAR\" audit --input-format spans in.fifo");
        assertThat(fifo.exit()).as(fifo.err()).isEqualTo(2);
        assertThat(fifo.out()).contains("\"source\": \"in.fifo\"");
        Run stdin = sh("cat \"$SPANS\" | \"$JAVA\" -jar \"$JAR\" audit --input-format spans /dev/stdin");
        assertThat(stdin.exit()).as(stdin.err()).isEqualTo(2);
        Run substituted = sh("exec bash -c '\"$JAVA\" -jar \"$JAR\" audit --input-format spans <(cat \"$SPANS\")'");
        assertThat(substituted.exit()).as(substituted.err()).isEqualTo(2);
        Run detected = sh("cat \"$SPANS\" | \"$JAVA\" -jar \"$JAR\" audit /dev/stdin");
        assertThat(detected.exit()).as(detected.err()).isEqualTo(2);
    }

    @Test
    void compressedFifosProcessSubstitutionAndPipesAreRead() throws Exception {
        Files.write(dir.resolve("spans.jsonl.gz"), dev.retryaudit.input.Compressed.gzip(Files.readAllBytes(SPANS)));
        Files.write(dir.resolve("spans.zst"), dev.retryaudit.input.Compressed.zstd(Files.readAllBytes(SPANS)));
        Run plain = sh("\"$JAVA\" -jar \"$JAR\" audit --format text - < \"$SPANS\"");
        assertThat(plain.exit()).as(plain.err()).isEqualTo(2);
        for (String script : List.of(
                "mkfifo in.fifo; cat spans.jsonl.gz > in.fifo & \"$JAVA\" -jar \"$JAR\" audit --format text in.fifo",
                "exec bash -c '\"$JAVA\" -jar \"$JAR\" audit --format text <(cat spans.zst)'",
                "cat spans.zst | \"$JAVA\" -jar \"$JAR\" audit --format text /dev/stdin",
                "cat spans.jsonl.gz | \"$JAVA\" -jar \"$JAR\" audit --format text -",
                "gzip -dc spans.jsonl.gz | \"$JAVA\" -jar \"$JAR\" audit --format text -")) {
            Run r = sh(script);
            assertThat(r.exit()).as(script + "\n" + r.err()).isEqualTo(2);
            assertThat(r.err()).as(script).isEmpty();
            assertThat(r.out().replaceAll("(?m)^\\S*(in\\.fifo|/dev/fd/\\d+|/dev/stdin)", "<stdin>")).as(script)
                    .isEqualTo(plain.out());
        }
    }

    @Test
    void namesTheLocaleCannotDecodeAreReadAndRefusedAsTargets() throws Exception {
        String name = "\"$(printf '\\303\\251t\\303\\251.jsonl')\"";
        Run read = sh("cp \"$SPANS\" " + name + " && LC_ALL=C \"$JAVA\" -jar \"$JAR\" audit " + name);
        assertThat(read.exit()).as(read.err()).isEqualTo(2);
        assertThat(read.out()).contains("\"passed\": false");
        Run target = sh("LC_ALL=C \"$JAVA\" -jar \"$JAR\" audit --output \"$(printf 'r\\303\\251.json')\" \"$SPANS\"");
        assertThat(target.exit()).isEqualTo(64);
        assertThat(target.err()).contains("'--output'", "cannot be represented").doesNotContain("Exception");
        Run invalid = sh("\"$JAVA\" -jar \"$JAR\" audit --output \"$(printf 'r\\377.json')\" \"$SPANS\"");
        assertThat(invalid.exit()).isEqualTo(64);
        assertThat(sh("ls | grep -c json").out().strip()).isEqualTo("1");
    }

    @Test
    void lostStandardOutputExits74() throws Exception {
        for (String args : List.of("--version", "schema report", "rules", "explain retry-after/early",
                "audit \"$SPANS\"", "audit --format text \"$SPANS\"")) {
            Run r = sh("\"$JAVA\" -jar \"$JAR\" " + args + " > /dev/full");
            assertThat(r.exit()).as(args + "\n" + r.err()).isEqualTo(74);
            assertThat(r.err()).as(args).contains("No space left on device").doesNotContain("Exception");
        }
    }

    @Test
    void runningOutOfMemoryIsOneLineAndExit65() throws Exception {
        byte[] lines = Files.readAllBytes(SPANS);
        List<String> src = new String(lines, StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
        try (var w = Files.newBufferedWriter(dir.resolve("big.jsonl"))) {
            for (int i = 0; i < 40_000; i++) {
                for (String l : src) {
                    w.write(l.replace("\"parent_run_id\":\"", "\"parent_run_id\":\"" + i + "-")
                            .replace("\"idempotency_key\":\"", "\"idempotency_key\":\"" + i + "-")
                            .replace("\"operation_id\":\"", "\"operation_id\":\"" + i + "-"));
                    w.write('\n');
                }
            }
        }
        Run r = sh("\"$JAVA\" -Xmx32m -jar \"$JAR\" audit big.jsonl");
        assertThat(r.exit()).as(r.err()).isEqualTo(65);
        assertThat(r.err().lines()).hasSize(1);
        assertThat(r.err()).startsWith("big.jsonl: error: out of memory while reading this input")
                .contains("-Xmx", "--limit-bytes").doesNotContain("\tat ", "Exception", "Error");
        assertThat(r.out()).contains("\"code\": 65", "out of memory");
    }

    private List<String> leftovers() throws IOException {
        List<String> names = new ArrayList<>();
        try (var s = Files.list(dir)) {
            s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tmp")).forEach(names::add);
        }
        return names;
    }
}

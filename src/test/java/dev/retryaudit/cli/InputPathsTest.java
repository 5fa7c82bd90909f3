package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Inputs that are not regular files are read as streams, with format detection on their head. */
class InputPathsTest {
    private static final Path SPANS = Path.of("examples/checkout-spans.jsonl");

    @TempDir
    Path dir;

    @Test
    void aNamedPipeIsAuditedWithDetection() throws Exception {
        Path fifo = dir.resolve("in.fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            try {
                Files.write(fifo, Files.readAllBytes(SPANS));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        CliRunner.Result r = CliRunner.run("audit", "--input-format", "auto", fifo.toString());
        writer.join();
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).contains("\"format\": \"spans\"", "\"source\": \"" + fifo + "\"");
    }

    @Test
    void aNameTheLocaleCannotRepresentAndNoFileHasIsUnreadable() {
        CliRunner.Result r = CliRunner.run("audit", dir + "/missing-\uFFFD.jsonl");
        assertThat(r.exit()).isEqualTo(66);
        assertThat(r.err()).doesNotContain("Exception");
    }
}

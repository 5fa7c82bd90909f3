package dev.retryaudit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the built jar as a user would: {@code java -jar target/retry-audit.jar ...}, with real pipes. */
class JarIT {
    private static final Path JAR = Path.of("target/retry-audit.jar");

    record Run(int exit, String out, String err) {
    }

    private static Run run(byte[] stdin, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", JAR.toString()));
        cmd.addAll(List.of(args));
        return exec(stdin, cmd);
    }

    private static Run exec(byte[] stdin, List<String> cmd) throws IOException, InterruptedException {
        return exec(new ProcessBuilder(cmd), stdin);
    }

    /** Runs a process to its end with {@code stdin} on a pipe; its exit code, stdout and stderr. */
    static Run exec(ProcessBuilder pb, byte[] stdin) throws IOException, InterruptedException {
        Process p = pb.start();
        // stderr is read beside stdout, so that neither pipe fills while the other is read.
        CompletableFuture<byte[]> errors = CompletableFuture.supplyAsync(() -> {
            try {
                return p.getErrorStream().readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        p.getOutputStream().write(stdin);
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = errors.join();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    @Test
    void auditsTheShippedExamples() throws Exception {
        Run failing = run(new byte[0], "audit", "examples/checkout-spans.jsonl");
        assertThat(failing.exit()).isEqualTo(2);
        assertThat(failing.out()).contains("\"passed\": false", "cart-c-1844");
        Run passing = run(new byte[0], "audit", "examples/checkout-operations.json");
        assertThat(passing.err()).isEmpty();
        assertThat(passing.out()).contains("\"format\": \"operations\"");
    }

    @Test
    void readsAPipeOnStdin() throws Exception {
        byte[] spans = Files.readAllBytes(Path.of("examples/checkout-spans.jsonl"));
        Run r = run(spans, "audit", "-");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.out()).contains("\"source\": \"<stdin>\"");
    }

    @Test
    @Tag("timing")
    void probesARealClient() throws Exception {
        Run r = run(new byte[0], "probe", "--failures", "1", "--delay", "1", "--timeout", "30",
                "--", "curl", "-sS", "--retry", "2", "{url}");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("\"probe\": {", "\"reached_success\": true", "\"verdict\": \"honoured\"");
        assertThat(r.err()).contains("retry-audit: probe: the client exited with code 0: 2 GETs, reached success; honoured: ");
    }

    @Test
    void versionIsTheManifestVersion() throws Exception {
        Run r = run(new byte[0], "--version");
        assertThat(r.exit()).isZero();
        assertThat(r.out().strip()).isEqualTo("retry-audit " + System.getProperty("project.version"));
    }

    @Test
    void badInputAndUsageExitWithTheirCodesAndNoStackTrace() throws Exception {
        Run bad = run("{\"operation_id\":\"a\"".getBytes(StandardCharsets.UTF_8), "audit", "--input-format", "spans");
        assertThat(bad.exit()).isEqualTo(65);
        assertThat(bad.err()).startsWith("<stdin>:1:").doesNotContain("Exception", "\tat ");
        Run usage = run(new byte[0], "audit", "--bogus");
        assertThat(usage.exit()).isEqualTo(64);
        Run missing = run(new byte[0], "audit", "no/such/file.json");
        assertThat(missing.exit()).isEqualTo(66);
    }

    @Test
    void aReaderClosingThePipeEarlyIsNoError(@TempDir Path dir) throws Exception {
        // A report far larger than a pipe's buffer, so the tool is still writing when head has gone.
        StringBuilder spans = new StringBuilder();
        for (int i = 0; i < 3000; i++) {
            spans.append("{\"parent_run_id\":\"run-9\",\"attempt_id\":1,\"idempotency_key\":\"k-").append(i)
                    .append("\",\"commit_state\":\"unknown\",\"retry_reason\":\"\",\"tool\":\"charge_cart\"}\n")
                    .append("{\"parent_run_id\":\"run-9\",\"attempt_id\":2,\"idempotency_key\":\"k-").append(i)
                    .append("\",\"commit_state\":\"committed\",\"retry_reason\":\"timeout\",\"tool\":\"charge_cart\"}\n");
        }
        Path input = dir.resolve("many.jsonl");
        Files.writeString(input, spans);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Run r = exec(new byte[0], List.of("bash", "-c", "'" + java + "' -jar " + JAR + " audit --format text '" + input
                + "' | head -c 5; echo \" exit=${PIPESTATUS[0]}\""));
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).startsWith(input.toString().substring(0, 5)).endsWith(" exit=2\n");
    }

    @Test
    void readsZstdAndGzipWithTheDecoderShadedIn(@TempDir Path dir) throws Exception {
        byte[] spans = Files.readAllBytes(Path.of("examples/checkout-spans.jsonl"));
        Path zst = Files.write(dir.resolve("spans.jsonl.zst"), dev.retryaudit.input.Compressed.zstd(spans));
        Path gz = Files.write(dir.resolve("spans.jsonl.gz"), dev.retryaudit.input.Compressed.gzip(spans));
        Run plain = run(spans, "audit", "--format", "text", "-");
        assertThat(plain.exit()).isEqualTo(2);
        for (Path file : List.of(zst, gz)) {
            Run r = run(new byte[0], "audit", "--format", "text", file.toString());
            assertThat(r.err()).isEmpty();
            assertThat(r.exit()).isEqualTo(2);
            assertThat(r.out()).isEqualTo(plain.out().replace("<stdin>", file.toString()));
            Run stdin = run(Files.readAllBytes(file), "audit", "--format", "text", "-");
            assertThat(stdin).isEqualTo(plain);
        }
        try (java.util.zip.ZipFile jar = new java.util.zip.ZipFile(JAR.toFile())) {
            assertThat(jar.getEntry("io/airlift/compress/zstd/ZstdInputStream.class")).isNotNull();
            assertThat(jar.getEntry("io/airlift/compress/snappy/SnappyCodec.class")).isNull();
        }
    }
}

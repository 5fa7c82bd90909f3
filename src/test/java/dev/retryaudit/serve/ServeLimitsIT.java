package dev.retryaudit.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * The jar's {@code serve} in a small heap: eight gzip bombs at once are refused (as they decompress, or as the budget of
 * bodies is full), none is taken, a bomb alone is a 413, and it goes on serving.
 */
class ServeLimitsIT {
    private static final Path JAR = Path.of("target/retry-audit.jar");

    /** 1 GiB of zeros, gzipped: about 1 MB. */
    private static byte[] bomb() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bytes, 1 << 16)) {
            byte[] zeros = new byte[1 << 20];
            for (int i = 0; i < 1024; i++) {
                gz.write(zeros);
            }
        }
        return bytes.toByteArray();
    }

    @Test
    void eightGzipBombsAtOnceAreRefusedInA64MiBHeap() throws Exception {
        byte[] bomb = bomb();
        assertThat(bomb.length).isBetween(500_000, 1_200_000);
        Process serve = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m", "-jar", JAR.toString(), "serve", "--listen", "127.0.0.1:0").redirectOutput(
                        ProcessBuilder.Redirect.DISCARD).start();
        try {
            BufferedReader err = new BufferedReader(new InputStreamReader(serve.getErrorStream(), StandardCharsets.UTF_8));
            String first = err.readLine();
            assertThat(first).startsWith("retry-audit: listening on http://127.0.0.1:");
            String base = first.replaceFirst("^retry-audit: listening on (http://[^ ]+) .*$", "$1");
            HttpClient http = HttpClient.newHttpClient();
            List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                answers.add(http.sendAsync(HttpRequest.newBuilder(URI.create(base + "/v1/traces"))
                        .header("Content-Type", "application/x-protobuf").header("Content-Encoding", "gzip")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(bomb)).build(), HttpResponse.BodyHandlers.ofString()));
            }
            // A bomb is refused as it decompresses (413); one whose body comes while another's decompression fills
            // the bodies' budget (a quarter of the heap) is told to come back (503 with Retry-After), never taken.
            int tooLarge = 0;
            for (CompletableFuture<HttpResponse<String>> a : answers) {
                HttpResponse<String> answer = a.get(120, TimeUnit.SECONDS);
                assertThat(answer.statusCode()).as(answer.body()).isIn(413, 503);
                if (answer.statusCode() == 503) {
                    assertThat(answer.headers().firstValue("Retry-After")).hasValue("1");
                }
                tooLarge += answer.statusCode() == 413 ? 1 : 0;
            }
            assertThat(tooLarge).isPositive();
            HttpResponse<String> alone = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/traces"))
                    .header("Content-Type", "application/x-protobuf").header("Content-Encoding", "gzip")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(bomb)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(alone.statusCode()).as("a bomb alone").isEqualTo(413);
            HttpResponse<String> health = http.send(HttpRequest.newBuilder(URI.create(base + "/healthz")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(health.body()).isEqualTo("ok\n");
            assertThat(serve.isAlive()).isTrue();
        } finally {
            serve.destroy();
            serve.waitFor(30, TimeUnit.SECONDS);
        }
    }
}

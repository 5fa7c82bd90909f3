package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code audit --from zipkin:} against a real Zipkin server (io.zipkin:zipkin-server, which the build copies
 * to target/zipkin/), started here on 127.0.0.1 with in-memory storage: recorded spans of OkHttp clients
 * are posted through its API v2 and audited where Zipkin holds them.
 */
class ZipkinStoreTest {
    private static final Path JAR = Path.of("target/zipkin/zipkin-server.jar");
    private static final Path RECORDED = Path.of("src/test/resources/real/recorded/otel-java-zipkin");
    private static final String KEYLESS_TRACE = "f106e665ea3b782d96a21a0da2d2de5d";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static Process zipkin;
    private static String base;
    /** How far back the recorded spans started, as --since takes it, with a day to spare. */
    private static String since;

    @BeforeAll
    static void startZipkin() throws Exception {
        assertThat(JAR).as("the build copies Zipkin's server here (maven-dependency-plugin, execution zipkin-server)")
                .exists();
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        base = "http://127.0.0.1:" + port;
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        zipkin = new ProcessBuilder(java.toString(), "-Xmx256m", "-jar", JAR.toString(),
                "--armeria.ports[0].ip=127.0.0.1", "--armeria.ports[0].port=" + port, "--armeria.ports[0].protocols=http")
                .redirectErrorStream(true).redirectOutput(Path.of("target/zipkin/server.log").toFile()).start();
        boolean up = false;
        for (int i = 0; i < 600 && !up && zipkin.isAlive(); i++) {
            try {
                up = get("/health").statusCode() == 200;
            } catch (IOException e) {
                Thread.sleep(500);
            }
        }
        assertThat(up).as("Zipkin's server answered /health; its log: target/zipkin/server.log").isTrue();
        post(Files.readString(RECORDED.resolve("okhttp-post-timeout-keyless.json")));
        JsonNode clean = JSON.readTree(RECORDED.resolve("okhttp-honoured-429-root.json").toFile());
        long first = Long.MAX_VALUE;
        for (JsonNode span : clean) {
            ((ObjectNode) span.get("localEndpoint")).put("serviceName", "clean-clients");
            first = Math.min(first, span.get("timestamp").asLong());
        }
        post(JSON.writeValueAsString(clean));
        since = (Duration.between(Instant.ofEpochMilli(first / 1000), Instant.now()).toDays() + 2) + "d";
    }

    @AfterAll
    static void stopZipkin() throws InterruptedException {
        if (zipkin != null) {
            zipkin.destroy();
            if (!zipkin.waitFor(30, TimeUnit.SECONDS)) {
                zipkin.destroyForcibly();
            }
        }
    }

    private static HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void post(String spans) throws IOException, InterruptedException {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/api/v2/spans"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(spans)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
    }

    @Test
    void aStoredTraceOfAKeylessWriteRetriedAfterATimeoutIsAFinding() throws IOException {
        CliRunner.Result r = CliRunner.run("audit", "--from", "zipkin:" + base, "--trace-id", KEYLESS_TRACE);
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        JsonNode report = JSON.readTree(r.out());
        assertThat(report.at("/inputs/0/source").asText()).isEqualTo("zipkin:" + base + "/api/v2/trace/" + KEYLESS_TRACE);
        assertThat(report.at("/inputs/0/format").asText()).isEqualTo("zipkin");
        assertThat(report.at("/findings/0/rule").asText()).isEqualTo("timeout-replay/keyless");
    }

    @Test
    void theTracesOfAServiceAreAuditedAsOneInput() throws IOException {
        CliRunner.Result bad = CliRunner.run("audit", "--format", "text", "--from", "zipkin:" + base, "--service",
                "record-clients", "--since", since);
        assertThat(bad.exit()).as(bad.err()).isEqualTo(2);
        assertThat(bad.out()).contains("[timeout-replay/keyless]");
        CliRunner.Result clean = CliRunner.run("audit", "--from", "zipkin:" + base, "--service", "clean-clients",
                "--since", since, "--limit", "10");
        assertThat(clean.exit()).as(clean.err()).isZero();
        JsonNode report = JSON.readTree(clean.out());
        assertThat(report.at("/summary/retries").asInt()).isEqualTo(1);
        assertThat(report.at("/summary/attempts").asInt()).isEqualTo(2);
        assertThat(report.at("/inputs/0/source").asText()).startsWith("zipkin:" + base + "/api/v2/traces?serviceName=clean-clients&");
    }

    @Test
    void aTraceTheStoreDoesNotHoldIsNoInputAndNoSpanOfAServiceIsNothingToAudit() {
        CliRunner.Result missing = CliRunner.run("audit", "--format", "text", "--from", "zipkin:" + base, "--trace-id", "0123");
        assertThat(missing.exit()).isEqualTo(66);
        assertThat(missing.err()).isEqualTo("zipkin:" + base + "/: error: the trace store holds no trace 0123 (HTTP 404 from "
                + base + "/api/v2/trace/0123)\n");
        CliRunner.Result none = CliRunner.run("audit", "--format", "text", "--from", "zipkin:" + base, "--service", "nobody");
        assertThat(none.exit()).isEqualTo(65);
        assertThat(none.err()).contains("error: nothing was audited").hasLineCount(1);
    }
}

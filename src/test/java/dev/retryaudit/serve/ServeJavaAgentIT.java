package dev.retryaudit.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The CI gate's recipe for JVM users as {@code docs/serve.md} writes it, with the real OpenTelemetry Java agent:
 * {@code serve --format json -- java -javaagent:opentelemetry-javaagent.jar ...}. The wrapped JVM takes its
 * exporter, protocol and header capture from the environment {@code serve} sets, waits 12 s before its first
 * request (longer than the idle time that once ended a receiver before the agent's first export), and retries a
 * 503 with {@code Retry-After: 2}: after 200 ms the gate exits 2 with {@code retry-after/early}, after the 2 s it
 * asked for the gate passes with one operation of two attempts.
 */
class ServeJavaAgentIT {
    private static final Path JAR = Path.of("target/retry-audit.jar");
    private static final Path AGENT = Path.of("target/otel-javaagent/opentelemetry-javaagent.jar");
    private static final long LATE_START_MS = 12_000;

    @Test
    void aLateStartingJvmThatRetriesBeforeRetryAfterFailsTheGate() throws Exception {
        Gate gate = run("early");
        assertThat(gate.exit).as(gate.all()).isEqualTo(2);
        JsonNode report = new ObjectMapper().readTree(gate.report);
        assertThat(report.at("/findings/0/rule").asText()).isEqualTo("retry-after/early");
        assertThat(report.at("/findings/0/evidence/retry_after").asText()).isEqualTo("2");
        assertThat(report.at("/summary/retries").asInt()).isEqualTo(1);
        assertThat(gate.requests).isEqualTo(2);
    }

    @Test
    void aLateStartingJvmThatHonoursRetryAfterPassesTheGate() throws Exception {
        Gate gate = run("honour");
        assertThat(gate.exit).as(gate.all()).isZero();
        JsonNode report = new ObjectMapper().readTree(gate.report);
        assertThat(report.at("/summary/operations").asInt()).as(gate.all()).isEqualTo(1);
        assertThat(report.at("/summary/attempts").asInt()).isEqualTo(2);
        assertThat(report.at("/summary/retries").asInt()).isEqualTo(1);
        assertThat(report.at("/findings").size()).isZero();
        assertThat(gate.requests).isEqualTo(2);
    }

    /** The gate's exit code, its report (stdout), its stderr, and the requests the upstream took. */
    private record Gate(int exit, String report, String err, int requests) {
        String all() {
            return report + "\nstderr:\n" + err;
        }
    }

    private static Gate run(String mode) throws Exception {
        assertThat(AGENT).as("the Java agent, copied by the build").exists();
        HttpServer upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        AtomicInteger calls = new AtomicInteger();
        upstream.createContext("/stock", x -> {
            boolean busy = calls.incrementAndGet() == 1;
            if (busy) {
                x.getResponseHeaders().set("Retry-After", "2");
            }
            x.sendResponseHeaders(busy ? 503 : 200, -1);
            x.close();
        });
        upstream.start();
        try {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            List<String> command = new ArrayList<>(List.of(java, "-jar", JAR.toString(), "serve", "--listen",
                    "127.0.0.1:" + freePort(), "--format", "json", "--",
                    java, "-javaagent:" + AGENT, "-Dotel.service.name=stock-client", "-Dotel.javaagent.logging=none",
                    "-cp", Path.of("target/test-classes").toAbsolutePath().toString(),
                    AgentRecipeClient.class.getName(),
                    "http://127.0.0.1:" + upstream.getAddress().getPort() + "/stock", mode,
                    Long.toString(LATE_START_MS)));
            Process serve = new ProcessBuilder(command).start();
            CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(serve.getInputStream()));
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(serve.getErrorStream()));
            assertThat(serve.waitFor(180, TimeUnit.SECONDS)).as("the gate ends once the wrapped JVM has").isTrue();
            String report = out.get(10, TimeUnit.SECONDS);
            return new Gate(serve.exitValue(), report, err.get(10, TimeUnit.SECONDS), calls.get());
        } finally {
            upstream.stop(0);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return free.getLocalPort();
        }
    }

    private static String read(InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

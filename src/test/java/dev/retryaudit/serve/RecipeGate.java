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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

/**
 * serve's CI gate as the recipes in {@code docs/serve.md} write it, around a real instrumented program:
 * {@code serve --format json -- COMMAND}, where the command is a client that waits {@link #LATE_START_MS} before
 * its first request (longer than the idle time that once ended a receiver before the first export) and retries an
 * upstream's 503 with {@code Retry-After: 2}, early or as asked. The result is the gate's exit code, its JSON
 * report, its stderr and the number of requests the upstream took.
 */
record RecipeGate(int exit, String report, String err, int requests) {
    static final long LATE_START_MS = 12_000;
    private static final Path JAR = Path.of("target/retry-audit.jar");

    /** Runs the gate around {@code command}, given the upstream's URL and the client's mode ("early" or "honour"). */
    static RecipeGate run(String mode, BiFunction<String, String, List<String>> command) throws Exception {
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
            List<String> all = new ArrayList<>(List.of(java(), "-jar", JAR.toString(), "serve", "--listen",
                    "127.0.0.1:" + freePort(), "--format", "json", "--"));
            all.addAll(command.apply("http://127.0.0.1:" + upstream.getAddress().getPort() + "/stock", mode));
            Process serve = new ProcessBuilder(all).start();
            CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(serve.getInputStream()));
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(serve.getErrorStream()));
            assertThat(serve.waitFor(180, TimeUnit.SECONDS)).as("the gate ends once its command has").isTrue();
            return new RecipeGate(serve.exitValue(), out.get(10, TimeUnit.SECONDS), err.get(10, TimeUnit.SECONDS),
                    calls.get());
        } finally {
            upstream.stop(0);
        }
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Asserts the gate failed with retry-after/early on the retry that came 200 ms after a 503. */
    void failedOnTheEarlyRetry() throws IOException {
        assertThat(exit).as(all()).isEqualTo(2);
        JsonNode json = new ObjectMapper().readTree(report);
        assertThat(json.at("/findings/0/rule").asText()).as(all()).isEqualTo("retry-after/early");
        assertThat(json.at("/findings/0/evidence/retry_after").asText()).isEqualTo("2");
        assertThat(json.at("/summary/retries").asInt()).isEqualTo(1);
        assertThat(requests).isEqualTo(2);
    }

    /** Asserts the gate passed with one operation of two attempts, the retry having waited for Retry-After. */
    void passedTheHonouredRetry() throws IOException {
        assertThat(exit).as(all()).isZero();
        JsonNode json = new ObjectMapper().readTree(report);
        assertThat(json.at("/summary/operations").asInt()).as(all()).isEqualTo(1);
        assertThat(json.at("/summary/attempts").asInt()).isEqualTo(2);
        assertThat(json.at("/summary/retries").asInt()).isEqualTo(1);
        assertThat(json.at("/findings").size()).isZero();
        assertThat(requests).isEqualTo(2);
    }

    private String all() {
        return report + "\nstderr:\n" + err;
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

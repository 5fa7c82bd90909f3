package dev.retryaudit.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built jar's {@code serve} with a real producer: a client that retries a 503 before its Retry-After,
 * traced by the OpenTelemetry Java SDK and exported by its OTLP/HTTP exporter (protobuf) to the
 * receiver, which {@code --until-idle} ends with exit 2 and the retry-after/early finding.
 */
class ServeIT {
    private static final Path JAR = Path.of("target/retry-audit.jar");
    private static final AttributeKey<String> METHOD = AttributeKey.stringKey("http.request.method");
    private static final AttributeKey<String> URL = AttributeKey.stringKey("url.full");
    private static final AttributeKey<String> HOST = AttributeKey.stringKey("server.address");
    private static final AttributeKey<Long> STATUS = AttributeKey.longKey("http.response.status_code");
    private static final AttributeKey<Long> RESEND = AttributeKey.longKey("http.request.resend_count");
    private static final AttributeKey<List<String>> RETRY_AFTER =
            AttributeKey.stringArrayKey("http.response.header.retry-after");

    @Test
    void theSdksOtlpExporterFeedsServeUntilIdleWhichExitsTwoWithTheFinding(@TempDir Path dir) throws Exception {
        Path lines = dir.resolve("findings.jsonl");
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        Process serve = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                JAR.toString(), "serve", "--listen", "127.0.0.1:" + port, "--until-idle", "8s", "--idle", "1s",
                "--format", "text", "--output", lines.toString()).start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(serve.getInputStream()));
        BufferedReader err = new BufferedReader(new InputStreamReader(serve.getErrorStream(), StandardCharsets.UTF_8));
        String first = err.readLine();
        assertThat(first).startsWith("retry-audit: listening on http://127.0.0.1:" + port);

        HttpServer upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        AtomicInteger calls = new AtomicInteger();
        upstream.createContext("/charge", x -> {
            boolean busy = calls.incrementAndGet() == 1;
            if (busy) {
                x.getResponseHeaders().set("Retry-After", "2");
            }
            x.sendResponseHeaders(busy ? 503 : 200, -1);
            x.close();
        });
        upstream.start();
        SdkTracerProvider provider = SdkTracerProvider.builder()
                .setResource(Resource.getDefault().toBuilder().put("service.name", "checkout").build())
                .addSpanProcessor(BatchSpanProcessor.builder(OtlpHttpSpanExporter.builder()
                        .setEndpoint("http://127.0.0.1:" + port + "/v1/traces").build()).build())
                .build();
        try {
            retryingClient(provider.get("serve-it"), "http://127.0.0.1:" + upstream.getAddress().getPort() + "/charge");
            assertThat(provider.forceFlush().join(10, TimeUnit.SECONDS).isSuccess()).isTrue();
        } finally {
            provider.shutdown().join(10, TimeUnit.SECONDS);
            upstream.stop(0);
        }
        assertThat(serve.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String report = out.get(10, TimeUnit.SECONDS);
        assertThat(serve.exitValue()).as(report).isEqualTo(2);
        assertThat(report).contains("[retry-after/early]", "came back", "before Retry-After allowed");
        List<String> written = java.nio.file.Files.readAllLines(lines);
        assertThat(written).hasSize(1);
        JsonNode finding = new ObjectMapper().readTree(written.get(0));
        assertThat(finding.get("rule").asText()).isEqualTo("retry-after/early");
        assertThat(finding.get("location").get("source").asText()).isEqualTo("/v1/traces");
        assertThat(finding.get("fingerprint").asText()).startsWith("sha256:");
    }

    /** Sends a POST, and on a 503 sends it again after 200 ms, whatever Retry-After asked: one span an attempt. */
    private static void retryingClient(Tracer tracer, String url) throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        Span call = tracer.spanBuilder("charge").setSpanKind(SpanKind.INTERNAL).startSpan();
        try (Scope ignored = call.makeCurrent()) {
            for (int attempt = 0; attempt < 2; attempt++) {
                Span send = tracer.spanBuilder("POST").setSpanKind(SpanKind.CLIENT).setAttribute(METHOD, "POST")
                        .setAttribute(URL, url).setAttribute(HOST, "127.0.0.1").startSpan();
                if (attempt > 0) {
                    send.setAttribute(RESEND, (long) attempt);
                }
                HttpResponse<Void> r = client.send(HttpRequest.newBuilder(URI.create(url))
                        .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.discarding());
                send.setAttribute(STATUS, (long) r.statusCode());
                r.headers().firstValue("Retry-After").ifPresent(v -> send.setAttribute(RETRY_AFTER, List.of(v)));
                send.end();
                if (r.statusCode() != 503) {
                    break;
                }
                Thread.sleep(200);
            }
        } finally {
            call.end();
        }
    }

    private static String read(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}

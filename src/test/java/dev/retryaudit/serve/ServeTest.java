package dev.retryaudit.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.retryaudit.api.AuditInput;
import dev.retryaudit.api.AuditResult;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.input.foreign.otlp.OtlpProtoFixtures;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.Limits;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/** {@code serve} over HTTP: parity with {@code audit} of the same spans in one file, and every kind of bad request. */
class ServeTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final RetryAudit AUDIT = RetryAudit.defaults();
    /** Where runs with a report keep their findings. */
    private static final Path SPILL = Path.of(System.getProperty("java.io.tmpdir"));
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private static Serve serve(List<Finding> findings, long maxHeld, Limits limits) throws IOException {
        return Serve.start(AUDIT, new Serve.Settings(new InetSocketAddress("127.0.0.1", 0), Duration.ofHours(1),
                maxHeld, limits, Serve.Connections.DEFAULTS, SPILL), findings::addAll, System.err::println);
    }

    private static HttpResponse<byte[]> post(Serve s, String path, String type, String encoding, byte[] body)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://" + hostPort(s) + path))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (type != null) {
            b.header("Content-Type", type);
        }
        if (encoding != null) {
            b.header("Content-Encoding", encoding);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static HttpResponse<String> get(Serve s, String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://" + hostPort(s) + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String hostPort(Serve s) {
        return "127.0.0.1:" + s.address().getPort();
    }

    private static byte[] gzip(byte[] b) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(b);
        }
        return out.toByteArray();
    }

    /** The spans of a file, each with its resource and scope, to be regrouped into exports at random. */
    private record Placed(JsonNode resource, JsonNode scope, JsonNode span) {
    }

    private static List<Placed> spans(ExportTraceServiceRequest export) throws IOException {
        JsonNode doc = JSON.readTree(dev.retryaudit.input.foreign.otlp.OtlpProtoJson.json(export));
        List<Placed> out = new ArrayList<>();
        for (JsonNode rs : doc.path("resourceSpans")) {
            for (JsonNode ss : rs.path("scopeSpans")) {
                for (JsonNode span : ss.path("spans")) {
                    out.add(new Placed(rs.get("resource"), ss.get("scope"), span));
                }
            }
        }
        return out;
    }

    /** One export of {@code spans}: one ResourceSpans and ScopeSpans per span, as an exporter may batch them. */
    private static ObjectNode export(List<Placed> spans) {
        ObjectNode doc = JSON.createObjectNode();
        ArrayNode rss = doc.putArray("resourceSpans");
        for (Placed p : spans) {
            ObjectNode rs = rss.addObject();
            if (p.resource() != null) {
                rs.set("resource", p.resource());
            }
            ObjectNode ss = rs.putArray("scopeSpans").addObject();
            if (p.scope() != null) {
                ss.set("scope", p.scope());
            }
            ss.putArray("spans").add(p.span());
        }
        return doc;
    }

    @Test
    void spansSentInRandomSplitsGiveTheFindingsOfOneFile() throws Exception {
        Random random = new Random(25);
        int compared = 0;
        for (Path file : OtlpProtoFixtures.jsonFiles()) {
            List<Placed> spans = new ArrayList<>();
            AuditResult expected;
            try {
                for (ExportTraceServiceRequest e : OtlpProtoFixtures.exports(file)) {
                    spans.addAll(spans(e));
                }
                // The spans in one file, with their resources: the file audit sends them all at once.
                byte[] one = JSON.writeValueAsBytes(export(spans));
                expected = AUDIT.audit(AuditInput.stream(new ByteArrayInputStream(one), Receiver.OTLP_SOURCE));
            } catch (RetryAuditException | RuntimeException | IOException e) {
                continue;
            }
            Collections.shuffle(spans, random);
            List<Finding> lines = new CopyOnWriteArrayList<>();
            AuditResult got;
            try (Serve s = serve(lines, 1_000_000, Limits.DEFAULTS)) {
                int i = 0;
                while (i < spans.size()) {
                    int n = 1 + random.nextInt(Math.max(1, Math.min(4, spans.size() - i)));
                    ObjectNode doc = export(spans.subList(i, Math.min(spans.size(), i + n)));
                    i += n;
                    boolean protobuf = random.nextBoolean();
                    boolean gzip = random.nextBoolean();
                    byte[] body = protobuf ? OtlpProtoFixtures.export(doc).toByteArray() : JSON.writeValueAsBytes(doc);
                    HttpResponse<byte[]> r = post(s, "/v1/traces", protobuf ? "application/x-protobuf"
                            : "application/json", gzip ? "gzip" : null, gzip ? gzip(body) : body);
                    assertThat(r.statusCode()).as(file + " " + new String(r.body(), StandardCharsets.UTF_8)).isEqualTo(200);
                }
                got = s.finish();
            }
            assertThat(identities(got.findings())).as(file.toString()).isEqualTo(identities(expected.findings()));
            assertThat(identities(lines)).as(file + ": the lines").isEqualTo(identities(expected.findings()));
            assertThat(got.inputs().get(0).operations()).as(file.toString())
                    .isEqualTo(expected.inputs().get(0).operations());
            compared++;
        }
        assertThat(compared).isGreaterThan(30);
    }

    private static List<String> identities(List<Finding> findings) {
        List<String> out = new ArrayList<>();
        for (Finding f : findings) {
            out.add(f.rule() + " " + f.severity() + " " + f.operation() + " " + f.attempt() + " " + f.fingerprint());
        }
        out.sort(null);
        return out;
    }

    private static byte[] example() throws IOException {
        return Files.readAllBytes(Path.of("src/test/resources/input/otlp/agent-checkout.json"));
    }

    @Test
    void zipkinSpansSplitOverRequestsGiveTheFindingsOfOneFile() throws Exception {
        Path file = Path.of("src/test/resources/input/zipkin/retry-429-early.json");
        AuditResult expected = AUDIT.audit(AuditInput.stream(Files.newInputStream(file), Receiver.ZIPKIN_SOURCE));
        assertThat(expected.findings()).isNotEmpty();
        JsonNode spans = JSON.readTree(file.toFile());
        List<Finding> lines = new CopyOnWriteArrayList<>();
        AuditResult got;
        try (Serve s = serve(lines, 1_000_000, Limits.DEFAULTS)) {
            for (JsonNode span : spans) {
                ArrayNode one = JSON.createArrayNode().add(span);
                assertThat(post(s, "/api/v2/spans", "application/json", null, JSON.writeValueAsBytes(one)).statusCode())
                        .isEqualTo(202);
            }
            assertThat(post(s, "/api/v2/spans", "application/x-protobuf", null, new byte[] {1}).statusCode())
                    .isEqualTo(415);
            got = s.finish();
        }
        assertThat(identities(got.findings())).isEqualTo(identities(expected.findings()));
        assertThat(identities(lines)).isEqualTo(identities(expected.findings()));
    }

    @Test
    void successAnswersAnExportResponseInTheRequestsEncoding() throws Exception {
        try (Serve s = serve(new ArrayList<>(), 1_000_000, Limits.DEFAULTS)) {
            HttpResponse<byte[]> json = post(s, "/v1/traces", "application/json; charset=utf-8", null, example());
            assertThat(json.statusCode()).isEqualTo(200);
            assertThat(json.headers().firstValue("Content-Type")).hasValue("application/json");
            assertThat(new String(json.body(), StandardCharsets.UTF_8)).isEqualTo("{}");
            byte[] proto = OtlpProtoFixtures.export(JSON.readTree(example())).toByteArray();
            HttpResponse<byte[]> p = post(s, "/v1/traces", "application/x-protobuf", "gzip", gzip(proto));
            assertThat(p.statusCode()).isEqualTo(200);
            assertThat(ExportTraceServiceResponse.parseFrom(p.body()).hasPartialSuccess()).isFalse();
        }
    }

    @Test
    void spansTheAuditCannotUseAreCountedAsRejected() throws Exception {
        String compact = JSON.writeValueAsString(JSON.readTree(example()));
        String bad = compact.replaceFirst("\\{\"key\":\"http.response.status_code\",\"value\":\\{\"intValue\":[^}]*\\}",
                "{\"key\":\"http.response.status_code\",\"value\":{\"boolValue\":true}");
        assertThat(bad).isNotEqualTo(compact);
        try (Serve s = serve(new ArrayList<>(), 1_000_000, Limits.DEFAULTS)) {
            byte[] proto = OtlpProtoFixtures.export(JSON.readTree(bad)).toByteArray();
            HttpResponse<byte[]> p = post(s, "/v1/traces", "application/x-protobuf", null, proto);
            assertThat(p.statusCode()).isEqualTo(200);
            ExportTraceServiceResponse r = ExportTraceServiceResponse.parseFrom(p.body());
            assertThat(r.getPartialSuccess().getRejectedSpans()).isEqualTo(11);
            assertThat(r.getPartialSuccess().getErrorMessage()).startsWith("/v1/traces:1:1: error: ")
                    .contains("http.response.status_code");
            assertThat(get(s, "/metrics").body()).contains("retry_audit_spans_rejected_total 11");
        }
    }

    @Test
    void badRequestsGetTheirStatusAndTheServerKeepsAnswering() throws Exception {
        try (Serve s = serve(new ArrayList<>(), 1_000_000, new Limits(1 << 20, 5_000_000, 10_000, 65_536, 64))) {
            byte[] proto = OtlpProtoFixtures.export(JSON.readTree(example())).toByteArray();
            byte[] truncated = java.util.Arrays.copyOf(proto, proto.length - 7);
            HttpResponse<byte[]> r = post(s, "/v1/traces", "application/x-protobuf", null, truncated);
            assertThat(r.statusCode()).isEqualTo(400);
            com.google.protobuf.CodedInputStream in = com.google.protobuf.CodedInputStream.newInstance(r.body());
            assertThat(in.readTag()).isEqualTo(8);
            assertThat(in.readInt32()).isEqualTo(3);
            assertThat(in.readTag()).isEqualTo(18);
            assertThat(in.readString()).startsWith("malformed protobuf: ");

            assertThat(post(s, "/v1/traces", "text/plain", null, example()).statusCode()).isEqualTo(415);
            assertThat(post(s, "/v1/traces", null, null, example()).statusCode()).isEqualTo(415);
            assertThat(post(s, "/v1/traces", "application/json", "br", example()).statusCode()).isEqualTo(415);
            assertThat(post(s, "/v2/traces", "application/json", null, example()).statusCode()).isEqualTo(404);
            assertThat(get(s, "/v1/traces").statusCode()).isEqualTo(405);

            // A gzip bomb: 64 MiB of zeros in 64 KiB, over the 1 MiB limit once decompressed.
            byte[] bomb = gzip(new byte[64 << 20]);
            assertThat(bomb.length).isLessThan(1 << 20);
            HttpResponse<byte[]> b = post(s, "/v1/traces", "application/json", "gzip", bomb);
            assertThat(b.statusCode()).isEqualTo(413);
            assertThat(new String(b.body(), StandardCharsets.UTF_8)).contains("\"code\":8").contains("--limit-bytes");
            // Refused by its Content-Length before the body is read: the server closes that connection, so the
            // request goes on a connection of its own, which no later request of this test reuses.
            HttpResponse<byte[]> large = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://" + hostPort(s) + "/v1/traces")).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[2 << 20])).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(large.statusCode()).isEqualTo(413);
            assertThat(post(s, "/v1/traces", "application/json", "gzip", new byte[] {31, (byte) 139, 8, 0, 1})
                    .statusCode()).isEqualTo(400);

            String unknown = "{\"resourceSpans\":[],\"somethingNew\":{\"a\":[1,2]}}";
            assertThat(post(s, "/v1/traces", "application/json", null, unknown.getBytes()).statusCode()).isEqualTo(200);
            String wrongType = "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{\"traceId\":5}]}]}]}";
            HttpResponse<byte[]> w = post(s, "/v1/traces", "application/json", null, wrongType.getBytes());
            assertThat(w.statusCode()).isEqualTo(400);
            assertThat(new String(w.body(), StandardCharsets.UTF_8)).startsWith("{\"code\":3,\"message\":\"/v1/traces:");
            assertThat(post(s, "/v1/traces", "application/json", null, "{\"resourceSpans\": [".getBytes()).statusCode())
                    .isEqualTo(400);
            assertThat(post(s, "/api/v2/spans", "application/json", null, "{}".getBytes()).statusCode()).isEqualTo(400);

            assertThat(get(s, "/healthz").body()).isEqualTo("ok\n");
            assertThat(post(s, "/v1/traces", "application/json", null, example()).statusCode()).isEqualTo(200);
            // The Java agent's metrics and logs: taken and dropped, so that it does not warn every minute.
            assertThat(post(s, "/v1/metrics", "application/x-protobuf", null, new byte[] {10, 0}).statusCode()).isEqualTo(200);
            assertThat(post(s, "/v1/logs", "application/json", null, "{}".getBytes()).body()).asString().isEqualTo("{}");
        }
    }

    @Test
    void manyConcurrentSmallRequestsAreEachAnswered() throws Exception {
        try (Serve s = serve(new ArrayList<>(), 1_000_000, Limits.DEFAULTS)) {
            byte[] small = "{\"resourceSpans\":[]}".getBytes(StandardCharsets.UTF_8);
            ExecutorService clients = Executors.newFixedThreadPool(64);
            try {
                List<Future<Integer>> answers = new ArrayList<>();
                for (int i = 0; i < 10_000; i++) {
                    answers.add(clients.submit(() -> post(s, "/v1/traces", "application/json", null, small).statusCode()));
                }
                for (Future<Integer> f : answers) {
                    assertThat(f.get()).isEqualTo(200);
                }
            } finally {
                clients.shutdownNow();
            }
            assertThat(get(s, "/metrics").body()).contains("retry_audit_http_requests_total{path=\"/v1/traces\",code=\"200\"} 10000");
        }
    }

    @Test
    void pastTheHeldSpansItAnswers503WithRetryAfter() throws Exception {
        try (Serve s = serve(new ArrayList<>(), 5, Limits.DEFAULTS)) {
            assertThat(post(s, "/v1/traces", "application/json", null, example()).statusCode()).isEqualTo(200);
            HttpResponse<byte[]> r = post(s, "/v1/traces", "application/json", null, example());
            assertThat(r.statusCode()).isEqualTo(503);
            assertThat(r.headers().firstValue("Retry-After")).hasValue("3600");
            assertThat(get(s, "/metrics").body()).contains("retry_audit_exports_refused_total 1");
        }
    }

    /** Every sample line of the exposition: a name, optional labels, a number; every metric has HELP and TYPE. */
    @Test
    void metricsParseAsPrometheusText() throws Exception {
        Pattern sample = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*(\\{([a-zA-Z_][a-zA-Z0-9_]*=\"([^\"\\\\\\n]|\\\\.)*\",?)*\\})? -?[0-9.eE+]+");
        try (Serve s = serve(new ArrayList<>(), 1_000_000, Limits.DEFAULTS)) {
            post(s, "/v1/traces", "application/json", null, example());
            s.finish();
        }
        List<Finding> findings = new ArrayList<>();
        try (Serve s = serve(findings, 1_000_000, Limits.DEFAULTS)) {
            post(s, "/v1/traces", "application/json", null, example());
            HttpResponse<String> m = get(s, "/metrics");
            assertThat(m.headers().firstValue("Content-Type")).hasValue(Metrics.CONTENT_TYPE);
            java.util.Set<String> typed = new java.util.HashSet<>();
            for (String line : m.body().split("\n")) {
                if (line.startsWith("# TYPE ")) {
                    typed.add(line.split(" ")[2]);
                } else if (!line.startsWith("# HELP ")) {
                    assertThat(line).matches(sample);
                    assertThat(typed).contains(line.split("[{ ]")[0]);
                }
            }
            assertThat(m.body()).contains("retry_audit_spans_received_total 11", "retry_audit_spans_held 9");
        }
    }
}

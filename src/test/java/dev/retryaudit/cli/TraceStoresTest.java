package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code audit --from jaeger:} and {@code tempo:} read the answers their query APIs give, recorded from the
 * projects' own test data and documentation (src/test/resources/stores/README.md), served on 127.0.0.1; and
 * a store that answers wrongly is exit 65, one that cannot be reached 66, each with one line.
 */
class TraceStoresTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path STORES = Path.of("src/test/resources/stores");
    private static final Path PUBLIC = Path.of("src/test/resources/real/public");
    private static final Path RECORDED = Path.of("src/test/resources/real/recorded/otel-js");

    private HttpServer server;
    private String base;
    /** The answers by request path (without the query): status and body. */
    private final Map<String, Object[]> answers = new ConcurrentHashMap<>();
    private final List<String> asked = new CopyOnWriteArrayList<>();

    @BeforeEach
    void serve() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            asked.add(exchange.getRequestURI().toString());
            Object[] a = answers.getOrDefault(exchange.getRequestURI().getPath(), new Object[] {404, "{\"error\":\"not found\"}"});
            byte[] body = ((String) a[1]).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders((Integer) a[0], body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void answer(String path, int status, String body) {
        answers.put(path, new Object[] {status, body});
    }

    private static String read(Path p) throws IOException {
        return Files.readString(p, StandardCharsets.UTF_8);
    }

    @Test
    void tempoSearchesWithTraceQlAndReadsEachTraceFound() throws IOException {
        answer("/api/search", 200, read(STORES.resolve("tempo-search.json")));
        // The API v2 answers a trace as {"trace": {"resourceSpans": [...]}}, the older one as {"batches": [...]}.
        answer("/api/traces/850ca37e06a5ee7d19199d35a63f4b73", 200, read(STORES.resolve("tempo-trace-fetch-polling.json")));
        answer("/api/traces/1f25dec1be2044cb5711fdec0bfc19c5", 200,
                read(STORES.resolve("tempo-trace-got-honoured-429-parent.json")));
        CliRunner.Result r = CliRunner.run("audit", "--from", "tempo:" + base, "--service", "record-clients", "--since", "2h",
                "--limit", "5");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode inputs = JSON.readTree(r.out()).get("inputs");
        assertThat(inputs).hasSize(1);
        assertThat(inputs.get(0).get("source").asText()).isEqualTo("tempo:" + base + asked.get(0));
        assertThat(inputs.get(0).get("format").asText()).isEqualTo("otlp");
        // The two traces read as the exports they were made of (ids in base64, enums by name): 5 and 1 operations.
        JsonNode recorded = JSON.readTree(CliRunner.run("audit", RECORDED.resolve("fetch-polling.json").toString(),
                RECORDED.resolve("got-honoured-429-parent.json").toString()).out()).get("inputs");
        for (String count : List.of("operations", "attempts")) {
            assertThat(inputs.get(0).get(count).asInt()).as(count)
                    .isEqualTo(recorded.get(0).get(count).asInt() + recorded.get(1).get(count).asInt());
        }
        assertThat(inputs.get(0).get("operations").asInt()).isEqualTo(6);
        assertThat(asked.get(0)).startsWith("/api/search?q=%7Bresource.service.name%3D%22record-clients%22%7D&start=")
                .endsWith("&limit=5");
        assertThat(asked).hasSize(3);
        // --limit bounds the traces fetched, and so the requests.
        asked.clear();
        assertThat(CliRunner.run("audit", "--from", "tempo:" + base, "--limit", "1").exit()).isZero();
        assertThat(asked).hasSize(2);
        assertThat(asked.get(0)).startsWith("/api/search?q=%7B%7D&");
    }

    @Test
    void jaegerIsAskedThroughApiV3AndElseV1() throws IOException {
        answer("/api/v3/traces/00000000000000000000000000000001", 200, read(PUBLIC.resolve("jaeger-apiv3-GetTrace.json")));
        CliRunner.Result v3 = CliRunner.run("audit", "--allow-empty", "--from", "jaeger:" + base + "/", "--trace-id",
                "00000000000000000000000000000001");
        assertThat(v3.exit()).as(v3.err()).isZero();
        assertThat(JSON.readTree(v3.out()).at("/inputs/0/format").asText()).isEqualTo("otlp");
        assertThat(JSON.readTree(v3.out()).at("/inputs/0/notes/0/message").asText())
                .isEqualTo("nothing in this input was audited: it holds 1 span, none an attempt: 1 server span "
                        + "(the receiving side of a request)");
        // Without --allow-empty, a store's trace of server spans alone is refused as a file's would be.
        CliRunner.Result refused = CliRunner.run("audit", "--from", "jaeger:" + base, "--trace-id",
                "00000000000000000000000000000001");
        assertThat(refused.exit()).isEqualTo(65);
        assertThat(refused.err()).contains("nothing was audited: the input holds 1 span").hasLineCount(1);

        answer("/api/traces", 200, "{\"data\":[" + read(PUBLIC.resolve("jaeger-ui_01.json")) + "],\"total\":1}");
        CliRunner.Result v1 = CliRunner.run("audit", "--allow-empty", "--from", "jaeger:" + base, "--service", "service-x",
                "--since", "30m", "--limit", "3");
        assertThat(v1.exit()).as(v1.err()).isZero();
        assertThat(JSON.readTree(v1.out()).at("/inputs/0/format").asText()).isEqualTo("jaeger");
        assertThat(asked.get(asked.size() - 2)).startsWith("/api/v3/traces?query.service_name=service-x&query.start_time_min=")
                .endsWith("&query.search_depth=3");
        assertThat(asked.get(asked.size() - 1)).startsWith("/api/traces?service=service-x&start=").endsWith("&limit=3");
    }

    @Test
    void aWrongAnswerIs65AndAStoreOutOfReachIs66() throws IOException {
        answer("/api/v2/traces", 200, "<html>Zipkin</html>");
        CliRunner.Result html = CliRunner.run("audit", "--format", "text", "--from", "zipkin:" + base, "--service", "x");
        assertThat(html.exit()).isEqualTo(65);
        assertThat(html.err()).isEqualTo("zipkin:" + base + "/: error: the trace store answered " + asked.get(0).replaceFirst("^", base)
                + " with HTTP 200 and <html>Zipkin</html>, not a Zipkin v2 list of traces (an array of arrays of spans)\n");
        answer("/api/v2/traces", 500, "boom");
        assertThat(CliRunner.run("audit", "--from", "zipkin:" + base, "--service", "x").exit()).isEqualTo(65);
        answer("/api/v2/trace/abc", 200, "[" + "{\"traceId\":\"abc\"},".repeat(100) + "{}]");
        CliRunner.Result big = CliRunner.run("audit", "--from", "zipkin:" + base, "--trace-id", "abc", "--limit-bytes", "1000");
        assertThat(big.exit()).isEqualTo(65);
        assertThat(big.err()).contains("exceeds the byte limit of 1000 bytes; raise it with --limit-bytes").hasLineCount(1);

        int closed;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = free.getLocalPort();
        }
        CliRunner.Result gone = CliRunner.run("audit", "--format", "sarif", "--from", "tempo:http://127.0.0.1:" + closed,
                "--trace-id", "abc");
        assertThat(gone.exit()).isEqualTo(66);
        assertThat(gone.err()).isEqualTo("tempo:http://127.0.0.1:" + closed + "/: error: cannot reach the trace store at "
                + "http://127.0.0.1:" + closed + "/api/traces/abc: connection refused\n");
        assertThat(JSON.readTree(gone.out()).at("/runs/0/invocations/0/exitCode").asInt()).isEqualTo(66);
    }

    @Test
    void theQueryIsCheckedBeforeAnythingIsAsked() {
        assertThat(CliRunner.run("audit", "--from", "zipkin:" + base).err()).contains("needs --service or --trace-id");
        assertThat(CliRunner.run("audit", "--from", "zipkin:" + base, "--service", "x", "--limit", "0").exit()).isEqualTo(64);
        assertThat(CliRunner.run("audit", "--from", "zipkin:" + base, "--service", "x", "--since", "soon").exit()).isEqualTo(64);
        assertThat(CliRunner.run("audit", "--from", "zipkin:" + base, "--service", "x", "a.json").exit()).isEqualTo(64);
        assertThat(CliRunner.run("audit", "--from", "ftp://x", "--service", "x").exit()).isEqualTo(64);
        assertThat(asked).isEmpty();
    }
}

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Generates large foreign-format inputs for the streaming benchmark: an OTLP file-exporter JSON Lines
 * file, a HAR file, a Zipkin v2 array and a Jaeger query API document, each with ATTEMPTS attempts. Operations make 1 to 3 attempts; in OTLP a
 * resend lands in a later line than its first send (the reader must group across lines), every
 * tenth span is not an attempt, and a quarter of operations are tool calls; in HAR, entries come
 * out of time order (every eighth operation comes after the next one) and every seventh
 * operation begins with a failed request; in Zipkin and Jaeger, resends carry no counter (they are
 * linked by inference among siblings), every tenth operation's parent is a server span, and Jaeger
 * names each trace's processes after its spans.
 * Usage: java bench/foreign/ForeignGen.java ATTEMPTS OUT_DIR
 */
public final class ForeignGen {
    private static final long BASE_NS = 1_788_789_720_000_000_000L;
    private static final int BATCH = 100;

    public static void main(String[] args) throws IOException {
        int attempts = Integer.parseInt(args[0]);
        Path dir = Path.of(args[1]);
        Files.createDirectories(dir);
        otlp(attempts, dir.resolve("otlp-" + attempts + ".jsonl"));
        har(attempts, dir.resolve("har-" + attempts + ".har"));
        zipkin(attempts, dir.resolve("zipkin-" + attempts + ".json"));
        jaeger(attempts, dir.resolve("jaeger-" + attempts + ".json"));
    }

    /** The sends of operation {@code k} in order, as (start in microseconds, status) pairs, cut at {@code left}. */
    private static long[][] sends(int k, int left) {
        int n = Math.min(attemptsOf(k), left);
        long[][] sends = new long[n][];
        for (int i = 0; i < n; i++) {
            sends[i] = new long[] {BASE_NS / 1000 + k * 10_000L + i * 1_500_000L, i == n - 1 ? 200 : 503};
        }
        return sends;
    }

    private static void zipkin(int attempts, Path file) throws IOException {
        try (Writer w = new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), 1 << 16)) {
            w.write("[\n");
            int written = 0;
            String separator = "";
            for (int k = 0; written < attempts; k++) {
                String trace = String.format(Locale.ROOT, "%016x", 0x1000L + k / 50);
                String parent = String.format(Locale.ROOT, "%016x", 0xA000L + k);
                if (k % 10 == 0) {
                    w.write(separator + "{\"traceId\":\"" + trace + "\",\"id\":\"" + parent
                            + "\",\"kind\":\"SERVER\",\"name\":\"post /work\",\"timestamp\":" + BASE_NS / 1000
                            + ",\"localEndpoint\":{\"serviceName\":\"front\"},\"tags\":{\"http.method\":\"POST\"}}");
                    separator = ",\n";
                }
                long[][] sends = sends(k, attempts - written);
                for (int i = 0; i < sends.length; i++, written++) {
                    String method = k % 5 == 0 ? "POST" : "GET";
                    w.write(separator + "{\"traceId\":\"" + trace + "\",\"parentId\":\"" + parent
                            + "\",\"id\":\"" + String.format(Locale.ROOT, "%016x", 0x100000L + k * 4L + i)
                            + "\",\"kind\":\"CLIENT\",\"name\":\"" + method.toLowerCase(Locale.ROOT) + "\",\"timestamp\":"
                            + sends[i][0] + ",\"duration\":80000,\"localEndpoint\":{\"serviceName\":\"bench\",\"ipv4\":"
                            + "\"10.0.0.1\"},\"remoteEndpoint\":{\"serviceName\":\"api\"},\"tags\":{\"http.method\":\""
                            + method + "\",\"http.url\":\"https://api" + k % 13 + ".example/v1/items/" + k
                            + "\",\"http.status_code\":\"" + sends[i][1] + "\""
                            + (sends[i][1] == 503 ? ",\"http.response.header.retry-after\":\"1\",\"error\":\"503\"" : "")
                            + "}}");
                    separator = ",\n";
                }
            }
            w.write("\n]\n");
        }
    }

    private static void jaeger(int attempts, Path file) throws IOException {
        try (Writer w = new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), 1 << 16)) {
            w.write("{\"data\":[");
            int written = 0;
            for (int k = 0; written < attempts; k++) {
                String trace = String.format(Locale.ROOT, "%x", 0x1000L + k / 50);
                if (k % 50 == 0) {
                    w.write((k == 0 ? "" : "],\"processes\":{\"p1\":{\"serviceName\":\"bench\",\"tags\":[]}},"
                            + "\"warnings\":null},") + "\n{\"traceID\":\"" + trace + "\",\"spans\":[");
                }
                String parent = String.format(Locale.ROOT, "%016x", 0xA000L + k);
                long[][] sends = sends(k, attempts - written);
                for (int i = 0; i < sends.length; i++, written++) {
                    String method = k % 5 == 0 ? "POST" : "GET";
                    w.write((k % 50 == 0 && i == 0 ? "" : ",") + "\n{\"traceID\":\"" + trace + "\",\"spanID\":\""
                            + String.format(Locale.ROOT, "%016x", 0x100000L + k * 4L + i) + "\",\"flags\":1,"
                            + "\"operationName\":\"HTTP " + method + "\",\"references\":[{\"refType\":\"CHILD_OF\","
                            + "\"traceID\":\"" + trace + "\",\"spanID\":\"" + parent + "\"}],\"startTime\":" + sends[i][0]
                            + ",\"duration\":80000,\"tags\":[" + tag("span.kind", "string", "\"client\"") + ","
                            + tag("http.method", "string", "\"" + method + "\"") + ","
                            + tag("http.url", "string", "\"https://api" + k % 13 + ".example/v1/items/" + k + "\"") + ","
                            + tag("http.status_code", "int64", Long.toString(sends[i][1]))
                            + (sends[i][1] == 503 ? "," + tag("http.response.header.retry-after", "string", "\"1\"") + ","
                                    + tag("error", "bool", "true") : "")
                            + "],\"logs\":[],\"processID\":\"p1\",\"warnings\":null}");
                }
            }
            w.write("],\"processes\":{\"p1\":{\"serviceName\":\"bench\",\"tags\":[]}},\"warnings\":null}\n],"
                    + "\"total\":0,\"limit\":0,\"offset\":0,\"errors\":null}\n");
        }
    }

    private static String tag(String key, String type, String json) {
        return "{\"key\":\"" + key + "\",\"type\":\"" + type + "\",\"value\":" + json + "}";
    }

    /** How many attempts operation {@code k} makes. */
    private static int attemptsOf(int k) {
        return 1 + k % 3;
    }

    static void otlp(int attempts, Path file) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            int written = 0;
            int next = 0;
            for (int line = 0; written < attempts; line++) {
                StringBuilder spans = new StringBuilder();
                int first = next;
                // First sends of this line's operations, then the resends of the two lines before.
                for (int k = first; k < first + BATCH && written < attempts; k++, next++) {
                    written += span(spans, k, 0);
                }
                for (int back = 1; back <= 2 && written < attempts; back++) {
                    int from = (line - back) * BATCH;
                    for (int k = Math.max(0, from); k < from + BATCH && k < first && written < attempts; k++) {
                        if (attemptsOf(k) > back) {
                            written += span(spans, k, back);
                        }
                    }
                }
                w.write("{\"resourceSpans\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":"
                        + "{\"stringValue\":\"bench\"}}]},\"scopeSpans\":[{\"scope\":{\"name\":\"gen\"},\"spans\":["
                        + spans + "]}]}]}\n");
            }
        }
    }

    /** Appends the span of operation {@code k}'s send number {@code resend} (and a non-attempt span every tenth); returns 1. */
    private static int span(StringBuilder b, int k, int resend) {
        if (b.length() > 0) {
            b.append(',');
        }
        String trace = String.format(Locale.ROOT, "%032x", 0x1000L + k / 50);
        String parent = String.format(Locale.ROOT, "%016x", 0xA000L + k);
        String id = String.format(Locale.ROOT, "%016x", 0x100000L + k * 4L + resend);
        long start = BASE_NS + k * 10_000_000L + resend * 1_500_000_000L;
        boolean last = resend == attemptsOf(k) - 1;
        b.append("{\"traceId\":\"").append(trace).append("\",\"spanId\":\"").append(id)
                .append("\",\"parentSpanId\":\"").append(parent).append("\",\"name\":\"call\",\"kind\":3,")
                .append("\"startTimeUnixNano\":\"").append(start).append("\",\"endTimeUnixNano\":\"")
                .append(start + 80_000_000L).append("\",\"attributes\":[");
        if (k % 4 == 0) {
            b.append(attr("gen_ai.operation.name", "execute_tool")).append(',')
                    .append(attr("gen_ai.tool.name", "tool_" + k % 17)).append(',')
                    .append(attr("gen_ai.tool.call.id", "call_" + k));
            if (!last) {
                b.append(',').append(attr("error.type", "TimeoutError"));
            }
        } else {
            String method = k % 5 == 0 ? "POST" : "GET";
            b.append(attr("http.request.method", method)).append(',')
                    .append(attr("url.full", "https://api" + k % 13 + ".example/v1/items/" + k)).append(',')
                    .append("{\"key\":\"http.response.status_code\",\"value\":{\"intValue\":\"")
                    .append(last ? 200 : 503).append("\"}}");
            if (resend > 0) {
                b.append(",{\"key\":\"http.request.resend_count\",\"value\":{\"intValue\":").append(resend).append("}}");
            }
            if (!last) {
                b.append(",{\"key\":\"http.response.header.retry-after\",\"value\":{\"arrayValue\":{\"values\":"
                        + "[{\"stringValue\":\"1\"}]}}}");
            }
        }
        b.append("],\"status\":{\"code\":").append(last ? 0 : 2).append("}}");
        if (k % 10 == 0 && resend == 0) {
            b.append(",{\"traceId\":\"").append(trace).append("\",\"spanId\":\"")
                    .append(String.format(Locale.ROOT, "%016x", 0x900000000L + k))
                    .append("\",\"name\":\"SELECT\",\"attributes\":[").append(attr("db.system", "postgresql"))
                    .append("],\"events\":[{\"timeUnixNano\":\"").append(start).append("\",\"name\":\"row\"}]}");
        }
        return 1;
    }

    private static String attr(String key, String value) {
        return "{\"key\":\"" + key + "\",\"value\":{\"stringValue\":\"" + value + "\"}}";
    }

    private static void har(int attempts, Path file) throws IOException {
        try (Writer w = new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), 1 << 16)) {
            w.write("{\"log\":{\"version\":\"1.2\",\"creator\":{\"name\":\"ForeignGen\",\"version\":\"1\"},\"entries\":[\n");
            int written = 0;
            List<String> held = new ArrayList<>();
            boolean first = true;
            for (int k = 0; written < attempts; k++) {
                int n = Math.min(attemptsOf(k), attempts - written);
                List<String> entries = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    entries.add(entry(k, i, n));
                    written++;
                }
                // Every eighth operation is written after the next one: the file is not in time order.
                if (k % 8 == 0 && written < attempts) {
                    held = entries;
                    continue;
                }
                entries.addAll(held);
                held = List.of();
                for (String e : entries) {
                    w.write(first ? e : ",\n" + e);
                    first = false;
                }
            }
            w.write("\n]}}\n");
        }
    }

    /** Entry {@code i} of the {@code n} of operation {@code k}. */
    private static String entry(int k, int i, int n) {
        long ms = 1_788_789_720_000L + k * 4_000L + i * 1_200L;
        boolean failed = k % 7 == 0 && i == 0 && n > 1;
        int status = failed ? 0 : i == n - 1 ? 200 : 503;
        String method = k % 5 == 0 ? "POST" : "GET";
        return "{\"pageref\":\"page_" + k / 1000 + "\",\"startedDateTime\":\"" + Instant.ofEpochMilli(ms) + "\",\"time\":"
                + (failed ? "-1" : "85.5") + ",\"request\":{\"method\":\"" + method
                + "\",\"url\":\"https://api" + k % 13 + ".example/v1/items/" + k
                + "\",\"httpVersion\":\"HTTP/2\",\"headers\":[{\"name\":\"accept\",\"value\":\"*/*\"},"
                + "{\"name\":\"idempotency-key\",\"value\":\"key-" + k + "\"}],\"queryString\":[],"
                + "\"headersSize\":-1,\"bodySize\":-1},\"response\":{\"status\":" + status
                + ",\"statusText\":\"\",\"httpVersion\":\"HTTP/2\",\"headers\":["
                + (status == 503 ? "{\"name\":\"retry-after\",\"value\":\"1\"}," : "")
                + "{\"name\":\"date\",\"value\":\"Mon, 07 Sep 2026 14:02:00 GMT\"}],\"content\":{\"size\":13,"
                + "\"mimeType\":\"application/json\"},\"redirectURL\":\"\",\"headersSize\":-1,\"bodySize\":13},"
                + "\"cache\":{},\"timings\":{\"send\":0.1,\"wait\":80,\"receive\":5.4},\"_resourceType\":\"fetch\"}";
    }

}

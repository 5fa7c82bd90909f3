import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The synthetic inputs of {@code bench/run}: a spans file and an operations file with the same
 * attempts (about one operation in eight retries, a few violations), a spans file of at most a
 * given size, a spans file whose every operation gives one {@code trace/overlap} finding, and a
 * two-line input for start-up. Deterministic: the same arguments write the same bytes.
 */
final class BenchData {
    private static final String TS = "2026-09-07T14:%02d:%02d.%03dZ";
    private static final String[] TOOLS = {"charge_cart", "catalog_lookup", "send_email", "create_ticket", "search_docs"};
    private static final String[] METHODS = {"POST", "GET", "POST", "POST", "GET"};
    private static final String[] TARGETS = {"https://pay.example/v1/charges", "https://catalog.example/v2/items",
        "https://mail.example/v1/send", "https://desk.example/api/tickets", "https://docs.example/search"};

    static final String TWO_LINES = """
            {"parent_run_id":"run-9","attempt_id":1,"idempotency_key":"k-1","commit_state":"not_sent","retry_reason":"","tool":"charge_cart"}
            {"parent_run_id":"run-9","attempt_id":2,"idempotency_key":"k-1","commit_state":"committed","retry_reason":"timeout","tool":"charge_cart"}
            """;

    private BenchData() {
    }

    /** Writes the same {@code attempts} as spans JSON Lines and as one operations document. */
    static void spansAndOperations(int attempts, Path spans, Path ops) throws IOException {
        Random rnd = new Random(42);
        try (Writer s = writer(spans); Writer o = writer(ops)) {
            o.write("{\n  \"version\": 1,\n  \"source\": \"synthetic benchmark\",\n  \"operations\": [\n");
            int written = 0;
            for (int op = 0; written < attempts; op++) {
                Operation operation = operation(rnd, op, attempts - written);
                operation.writeSpans(s);
                o.write((op == 0 ? "" : ",\n") + operation.asDocumentEntry());
                written += operation.attempts.size();
            }
            o.write("\n  ]\n}\n");
        }
    }

    /** Writes spans of the same kind as {@link #spansAndOperations} until the next operation would pass {@code maxBytes}; returns the attempts. */
    static long spansUpTo(long maxBytes, Path spans) throws IOException {
        Random rnd = new Random(42);
        long bytes = 0;
        long attempts = 0;
        try (Writer s = writer(spans)) {
            for (int op = 0; ; op++) {
                Operation operation = operation(rnd, op, Integer.MAX_VALUE);
                StringBuilder lines = new StringBuilder();
                operation.appendSpans(lines);
                long size = lines.toString().getBytes(StandardCharsets.UTF_8).length;
                if (bytes + size > maxBytes) {
                    return attempts;
                }
                s.write(lines.toString());
                bytes += size;
                attempts += operation.attempts.size();
            }
        }
    }

    /**
     * Writes {@code operations} writes of two attempts each, the second started while the first was
     * in flight: one {@code trace/overlap} warning per operation and no other finding.
     */
    static void overlaps(int operations, Path spans) throws IOException {
        Random rnd = new Random(7);
        try (Writer s = writer(spans)) {
            for (int op = 0; op < operations; op++) {
                String id = String.format(Locale.ROOT, "op-%07d", op);
                String head = "{\"operation_id\":\"" + id + "\",\"parent_run_id\":\""
                        + String.format(Locale.ROOT, "run-%05d", op / 40)
                        + "\",\"tool\":\"charge_cart\",\"method\":\"POST\",\"target\":\"https://pay.example/v1/charges\""
                        + ",\"idempotency_key\":\"key-" + id + "\"";
                int sec = rnd.nextInt(3600);
                int ms = rnd.nextInt(500);
                int overlap = 1 + rnd.nextInt(400);
                s.write(head + ",\"attempt_id\":1,\"span_id\":\"" + spanId(rnd) + "\",\"started_at\":\""
                        + String.format(Locale.ROOT, TS, sec / 60, sec % 60, ms) + "\",\"duration_ms\":" + (500 + overlap)
                        + ",\"outcome\":\"error\",\"status\":503,\"commit_state\":\"not_sent\","
                        + "\"commit_state_source\":\"runner\",\"retry_reason\":\"\"}\n");
                s.write(head + ",\"attempt_id\":2,\"span_id\":\"" + spanId(rnd) + "\",\"started_at\":\""
                        + String.format(Locale.ROOT, TS, sec / 60, sec % 60, ms + 500) + "\",\"duration_ms\":"
                        + (20 + rnd.nextInt(900)) + ",\"outcome\":\"success\",\"status\":200,\"commit_state\":\"committed\","
                        + "\"commit_state_source\":\"runner\",\"retry_reason\":\"503 from upstream\"}\n");
            }
        }
    }

    private static Writer writer(Path file) throws IOException {
        return new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), 1 << 16);
    }

    private static String spanId(Random rnd) {
        return Long.toHexString(rnd.nextLong() | 1L << 62);
    }

    /** One operation of the mixed files: 88% make one attempt, the rest two or three; at most {@code room} attempts. */
    private static Operation operation(Random rnd, int op, int room) {
        int t = rnd.nextInt(TOOLS.length);
        int n = Math.min(room, rnd.nextInt(100) < 88 ? 1 : 2 + rnd.nextInt(2));
        boolean write = METHODS[t].equals("POST");
        String id = String.format(Locale.ROOT, "op-%07d", op);
        String run = String.format(Locale.ROOT, "run-%05d", op / 40);
        String key = write ? "key-" + id : null;
        List<String> attempts = new ArrayList<>();
        int second = rnd.nextInt(3600);
        for (int a = 1; a <= n; a++) {
            boolean last = a == n;
            int sec = second + (a - 1) * 2;
            String started = String.format(Locale.ROOT, TS, (sec / 60) % 60, sec % 60, rnd.nextInt(1000));
            String outcome = last ? "success" : (rnd.nextBoolean() ? "timeout" : "error");
            int status = last ? 200 : outcome.equals("error") ? 503 : 0;
            String commit = !write ? null : last ? "committed" : (op % 997 == 0 ? "unknown" : "not_sent");
            StringBuilder b = new StringBuilder();
            b.append("\"attempt_id\":").append(a)
                    .append(",\"span_id\":\"").append(spanId(rnd)).append('"')
                    .append(",\"started_at\":\"").append(started).append('"')
                    .append(",\"duration_ms\":").append(20 + rnd.nextInt(900))
                    .append(",\"outcome\":\"").append(outcome).append('"');
            if (status > 0) {
                b.append(",\"status\":").append(status);
            }
            if (commit != null) {
                b.append(",\"commit_state\":\"").append(commit).append("\",\"commit_state_source\":\"runner\"");
            }
            b.append(",\"retry_reason\":\"").append(a == 1 ? "" : (op % 1499 == 0 ? "" : "503 from upstream")).append('"');
            attempts.add(b.toString());
        }
        return new Operation(id, run, t, key, attempts);
    }

    /** One generated operation and its attempts' JSON members. */
    private record Operation(String id, String run, int tool, String key, List<String> attempts) {
        void appendSpans(StringBuilder out) {
            for (String attempt : attempts) {
                out.append("{\"operation_id\":\"").append(id).append("\",\"parent_run_id\":\"").append(run)
                        .append("\",\"tool\":\"").append(TOOLS[tool]).append("\",\"method\":\"").append(METHODS[tool])
                        .append("\",\"target\":\"").append(TARGETS[tool]).append("\",")
                        .append(key != null ? "\"idempotency_key\":\"" + key + "\"," : "").append(attempt).append("}\n");
            }
        }

        void writeSpans(Writer out) throws IOException {
            StringBuilder b = new StringBuilder();
            appendSpans(b);
            out.write(b.toString());
        }

        String asDocumentEntry() {
            return "    {\"id\": \"" + id + "\", \"tool\": \"" + TOOLS[tool] + "\", \"method\": \"" + METHODS[tool]
                    + "\", \"target\": \"" + TARGETS[tool] + "\", \"run_id\": \"" + run + "\""
                    + (key != null ? ", \"idempotency_key\": \"" + key + "\"" : "")
                    + ", \"attempts\": [\n      {" + String.join("},\n      {", attempts) + "}]}";
        }
    }
}

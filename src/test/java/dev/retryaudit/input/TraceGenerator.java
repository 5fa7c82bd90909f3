package dev.retryaudit.input;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Seeded benchmark-like traces for tests: the same operations as {@code spans} JSON Lines and as an
 * {@code operations} document, using every field of both formats, with violations that give findings.
 * Span lines of an operation come out of order and interleaved with later operations; some operations
 * are grouped by idempotency key only; some carry checks, attributes, parents and operation fields on
 * one line only.
 */
public final class TraceGenerator {
    private static final String[] TOOLS = {"charge_cart", "catalog_lookup", "send_email", "create_ticket", "search_docs"};
    private static final String[] METHODS = {"POST", "GET", "POST", "PUT", "GET"};
    private static final String[] TARGETS = {"https://pay.example/v1/charges", "https://catalog.example/v2/items",
        "https://mail.example/v1/send", "https://desk.example/api/tickets", "https://docs.example/search?q=\u00e9t\u00e9"};
    private static final String[] OUTCOMES = {"error", "timeout", "connection_error", "cancelled"};
    private static final String[] ERROR_CLASSES = {"validation", "auth", "not_found", "conflict", "rate_limited",
        "unavailable", "server", "other"};
    private static final String[] SOURCES = {"runner", "tool", "server", "ledger", "model"};
    private static final String[] REASONS = {"503 from upstream", "timeout", "", "rate limited \"429\"", "conn reset\ttwice"};

    private final StringBuilder spans = new StringBuilder();
    private final StringBuilder operations = new StringBuilder();

    private TraceGenerator() {
    }

    /** The generated texts. */
    public record Traces(String spans, String operations) {
    }

    /** About {@code attempts} attempts from {@code seed}. */
    public static Traces generate(long seed, int attempts) {
        TraceGenerator g = new TraceGenerator();
        g.run(new Random(seed), attempts);
        return new Traces(g.spans.toString(), g.operations.toString());
    }

    private void run(Random rnd, int attempts) {
        operations.append("{\n  \"version\": 1,\n  \"source\": \"generated\",\n  \"operations\": [\n");
        List<String> heldBack = new ArrayList<>();
        int written = 0;
        for (int op = 0; written < attempts; op++) {
            written += operation(rnd, op, heldBack);
            if (!heldBack.isEmpty() && rnd.nextInt(3) == 0) {
                spans.append(heldBack.remove(rnd.nextInt(heldBack.size())));
            }
        }
        heldBack.forEach(spans::append);
        operations.append("\n  ]\n}\n");
    }

    /** Writes one operation to both texts; returns its number of attempts. */
    private int operation(Random rnd, int op, List<String> heldBack) {
        int t = rnd.nextInt(TOOLS.length);
        int n = rnd.nextInt(100) < 80 ? 1 : 2 + rnd.nextInt(3);
        String id = String.format(Locale.ROOT, "op-%06d", op);
        boolean byKeyOnly = rnd.nextInt(8) == 0;
        boolean write = !METHODS[t].equals("GET");
        String key = write || byKeyOnly ? (rnd.nextInt(50) == 0 ? "shared-key-" + rnd.nextInt(3) + "-" + op : "key-" + id) : null;
        String run = "run-" + (op / 25);
        StringBuilder common = new StringBuilder();
        common.append("\"tool\":").append(str(TOOLS[t])).append(",\"method\":").append(str(METHODS[t]))
                .append(",\"target\":").append(str(TARGETS[t]));
        if (rnd.nextInt(6) == 0) {
            common.append(",\"effect\":").append(str(write ? "write" : "read"));
        }
        if (rnd.nextInt(7) == 0) {
            common.append(",\"deadline_ms\":").append(1000 + rnd.nextInt(30000));
        }
        if (rnd.nextInt(9) == 0) {
            common.append(",\"reported_outcome\":").append(str(rnd.nextBoolean() ? "success" : "failure"));
        }
        if (rnd.nextInt(11) == 0) {
            common.append(",\"clock\":").append(str(rnd.nextBoolean() ? "client" : "server"));
        }
        if (op > 0 && rnd.nextInt(10) == 0) {
            common.append(",\"parent\":{\"operation\":").append(str(String.format(Locale.ROOT, "op-%06d", rnd.nextInt(op))))
                    .append(",\"attempt\":1}");
        }
        List<String> attemptJson = new ArrayList<>();
        int second = rnd.nextInt(3000);
        for (int a = 1; a <= n; a++) {
            attemptJson.add(attempt(rnd, a, n, second, write, op));
        }
        List<String> checkJson = new ArrayList<>();
        if (write && rnd.nextInt(12) == 0) {
            checkJson.add("\"after_attempt\":" + (1 + rnd.nextInt(n)) + ",\"at\":" + str(time(second + 9, 5))
                    + ",\"kind\":\"ledger_read\",\"result\":" + str(new String[] {"committed", "not_found", "failed"}[rnd.nextInt(3)])
                    + (rnd.nextBoolean() ? ",\"count\":" + rnd.nextInt(3) : ""));
        }
        String attributes = rnd.nextInt(15) == 0 ? "{\"cart\":\"c-" + op + "\",\"n\":[1,2.5,{\"x\":null}]}" : null;

        operations.append(op == 0 ? "" : ",\n").append("    {\"id\": ").append(str(byKeyOnly ? key : id)).append(", ")
                .append(common);
        if (key != null) {
            operations.append(", \"idempotency_key\": ").append(str(key));
        }
        operations.append(", \"run_id\": ").append(str(run));
        if (attributes != null) {
            operations.append(", \"attributes\": ").append(attributes);
        }
        operations.append(", \"attempts\": [\n      {").append(String.join("},\n      {", attemptJson)).append("}]");
        if (!checkJson.isEmpty()) {
            operations.append(", \"checks\": [{").append(String.join("}, {", checkJson)).append("}]");
        }
        operations.append('}');

        // Span lines: the operation fields on every line, or only on one of them; attempts in any order.
        boolean everyLine = rnd.nextBoolean();
        int carrier = rnd.nextInt(n);
        List<Integer> order = new ArrayList<>();
        for (int a = 0; a < n; a++) {
            order.add(a);
        }
        java.util.Collections.shuffle(order, rnd);
        String group = byKeyOnly ? "" : "\"operation_id\":" + str(id) + ",";
        for (int a : order) {
            StringBuilder line = new StringBuilder("{");
            if (rnd.nextInt(10) == 0) {
                line.append("\"type\":\"attempt\",");
            }
            line.append(group).append("\"parent_run_id\":").append(str(run)).append(',');
            if (everyLine || a == carrier) {
                line.append(common).append(',');
            }
            if (key != null) {
                line.append("\"idempotency_key\":").append(str(key)).append(',');
            }
            line.append(attemptJson.get(a)).append("}\n");
            if (a == order.get(0) || rnd.nextInt(4) != 0) {
                spans.append(line);
            } else {
                heldBack.add(line.toString());
            }
        }
        for (String check : checkJson) {
            heldBack.add("{\"type\":\"check\"," + group + (key != null ? "\"idempotency_key\":" + str(key) + "," : "")
                    + check + "}\n");
        }
        return n;
    }

    private static String attempt(Random rnd, int a, int n, int second, boolean write, int op) {
        boolean last = a == n && rnd.nextInt(10) != 0;
        int sec = second + (a - 1) * (1 + rnd.nextInt(3));
        StringBuilder b = new StringBuilder();
        b.append("\"attempt_id\":").append(a);
        if (rnd.nextInt(5) != 0) {
            b.append(",\"span_id\":").append(str(Long.toHexString(rnd.nextLong() | 1L << 62)));
        }
        b.append(",\"started_at\":").append(str(time(sec, rnd.nextInt(1000))));
        if (rnd.nextInt(4) == 0) {
            b.append(",\"ended_at\":").append(str(time(sec + 1, rnd.nextInt(1000))));
        } else if (rnd.nextBoolean()) {
            b.append(",\"duration_ms\":").append(rnd.nextBoolean() ? Integer.toString(20 + rnd.nextInt(900))
                    : String.format(Locale.ROOT, "%.3f", rnd.nextDouble() * 900));
        }
        String outcome = last ? "success" : OUTCOMES[rnd.nextInt(OUTCOMES.length)];
        b.append(",\"outcome\":").append(str(outcome));
        if (outcome.equals("success")) {
            b.append(",\"status\":").append(rnd.nextInt(8) == 0 ? 201 : 200);
        } else if (outcome.equals("error")) {
            if (rnd.nextBoolean()) {
                b.append(",\"status\":").append(new int[] {429, 500, 502, 503, 409}[rnd.nextInt(5)]);
            } else {
                b.append(",\"error_class\":").append(str(ERROR_CLASSES[rnd.nextInt(ERROR_CLASSES.length)]));
            }
            int ra = rnd.nextInt(4);
            if (ra == 0) {
                b.append(",\"retry_after\":").append(rnd.nextInt(5));
            } else if (ra == 1) {
                b.append(",\"retry_after\":").append(str(rnd.nextBoolean() ? "3" : "Mon, 07 Sep 2026 14:10:00 GMT"));
                b.append(",\"response_date\":").append(str("Mon, 07 Sep 2026 14:09:58 GMT"));
            }
        }
        if (write) {
            String commit = last ? "committed" : rnd.nextInt(9) == 0 ? "unknown" : rnd.nextInt(7) == 0 ? "rejected" : "not_sent";
            b.append(",\"commit_state\":").append(str(commit));
            if (rnd.nextBoolean()) {
                b.append(",\"commit_state_source\":").append(str(SOURCES[rnd.nextInt(SOURCES.length)]));
            }
            if (rnd.nextInt(3) == 0) {
                b.append(",\"request_hash\":").append(str("sha256:" + Integer.toHexString(op * 31 + (rnd.nextInt(6) == 0 ? a : 0))));
            }
        }
        if (a > 1 || rnd.nextInt(10) == 0) {
            b.append(",\"retry_reason\":").append(str(REASONS[rnd.nextInt(REASONS.length)]));
        }
        if (rnd.nextInt(20) == 0) {
            b.append(",\"attributes\":{\"note\":\"caf\\u00e9 \u2603\",\"try\":").append(a).append('}');
        }
        return b.toString();
    }

    private static String time(int sec, int millis) {
        return String.format(Locale.ROOT, "2026-09-07T%02d:%02d:%02d.%03dZ", 14 + sec / 3600, (sec / 60) % 60, sec % 60, millis);
    }

    private static String str(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\t' -> b.append("\\t");
                default -> b.append(ch);
            }
        }
        return b.append('"').toString();
    }
}

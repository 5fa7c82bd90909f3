package dev.retryaudit.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Generated OTLP/JSON Lines over several files, one export a line, whose operations need the linker
 * across lines: root resends of one client and thread a few lines after their first send (some early
 * for the server's Retry-After), resends under one parent span on later lines (timeouts replayed with
 * and without a key), explicit operation ids and tool calls over lines, HTTP requests whose parent is
 * a tool call's attempt on another line, a root resend whose first send is in the file before, and
 * one run per file so that the run's retry budget and parent chains are judged across lines.
 */
final class OtlpCorpus {
    private static final long T0 = 1_788_000_000_000_000_000L;
    private static final long SECOND = 1_000_000_000L;

    private OtlpCorpus() {
    }

    /** The contents of {@code files} files of {@code rounds} rounds each (about six lines a round). */
    static List<String> files(int files, int rounds) {
        next = 0;
        List<String> out = new ArrayList<>();
        for (int f = 0; f < files; f++) {
            List<String> lines = new ArrayList<>();
            for (int r = 0; r < rounds; r++) {
                round(lines, f, r);
            }
            if (f > 0) {
                // a resend whose first send is the file before's last round
                lines.add(export("svc-0", "i-0", span(trace(f, rounds, 9), "", "GET", "https://api.example/items/"
                        + (rounds - 1), time(f - 1, rounds - 1, 2), 200, 1, null, null, null, run(f))));
            }
            out.add(String.join(f % 2 == 0 ? "\n" : "\r\n", lines) + "\n\n");
        }
        return out;
    }

    private static void round(List<String> lines, int f, int r) {
        String client = "svc-" + (r % 3);
        String instance = "i-" + (r % 3);
        long t = time(f, r, 0);
        String run = run(f);
        String url = "https://api.example/items/" + r;
        // root sends: a 429 with Retry-After 2, resent after 1 s (early) or 3 s (honoured), two lines later
        lines.add(export(client, instance, span(trace(f, r, 1), "", "GET", url, t, 429, null, "2", null, null, run)));
        String parent = spanId(f, r, 50);
        String tool = spanId(f, r, 60);
        lines.add(export(client, instance,
                internal(trace(f, r, 2), parent, "checkout", t)
                        + "," + span(trace(f, r, 2), parent, "POST", "https://pay.example/charges/" + r, t, null, null,
                                null, r % 2 == 0 ? "key-" + f + "-" + r : null, "java.net.SocketTimeoutException", run)));
        lines.add(export(client, instance, span(trace(f, r, 3), "", "GET", url,
                t + (r % 2 == 0 ? 1 : 3) * SECOND, 200, 1, null, null, null, run)));
        lines.add(export(client, instance, span(trace(f, r, 2), parent, "POST", "https://pay.example/charges/" + r,
                t + 2 * SECOND, 201, 1, null, r % 2 == 0 ? "key-" + f + "-" + r : null, null, run)));
        // a tool call over two lines, and a request under its first attempt on a line of its own
        lines.add(export(client, instance, toolSpan(trace(f, r, 4), tool, "call-" + f + "-" + r, t, run)
                + "," + explicit(trace(f, r, 5), "op-" + f + "-" + r, t, 1, run)));
        lines.add(export(client, instance, toolSpan(trace(f, r, 4), spanId(f, r, 61), "call-" + f + "-" + r,
                t + SECOND, run) + "," + span(trace(f, r, 4), tool, "GET", "https://search.example/q/" + r, t, 503,
                null, null, null, null, run) + "," + span(trace(f, r, 4), tool, "GET", "https://search.example/q/" + r,
                t + SECOND / 2, 200, 1, null, null, null, run) + "," + explicit(trace(f, r, 5), "op-" + f + "-" + r,
                t + 3 * SECOND, 2, run)));
    }

    private static String run(int f) {
        return "run-" + f;
    }

    private static long time(int f, int r, int s) {
        return T0 + (f * 1000L + r * 10L + s) * 60 * SECOND;
    }

    private static String trace(int f, int r, int k) {
        return String.format(Locale.ROOT, "%016x%016x", f * 100_000L + r, k + 1);
    }

    private static String spanId(int f, int r, int k) {
        return String.format(Locale.ROOT, "%08x%08x", f * 100_000 + r, k);
    }

    private static int next;

    private static String export(String client, String instance, String spans) {
        return "{\"resourceSpans\":[{\"resource\":{\"attributes\":[" + attr("service.name", client) + ","
                + attr("service.instance.id", instance) + "]},\"scopeSpans\":[{\"scope\":{\"name\":\"gen\"},"
                + "\"spans\":[" + spans + "]}]}]}";
    }

    private static String span(String trace, String parent, String method, String url, long start, Integer status,
            Integer resend, String retryAfter, String key, String error, String run) {
        List<String> a = new ArrayList<>();
        a.add(attr("http.request.method", method));
        a.add(attr("url.full", url));
        a.add(attr("retry_audit.run_id", run));
        a.add(attr("thread.name", "worker-1"));
        if (status != null) {
            a.add(intAttr("http.response.status_code", status));
        }
        if (resend != null) {
            a.add(intAttr("http.request.resend_count", resend));
        }
        if (retryAfter != null) {
            a.add(attr("http.response.header.retry-after", retryAfter));
        }
        if (key != null) {
            a.add(attr("http.request.header.idempotency-key", key));
        }
        if (error != null) {
            a.add(attr("error.type", error));
        }
        long end = start + (error != null ? SECOND : SECOND / 10);
        return "{\"traceId\":\"" + trace + "\",\"spanId\":\"" + String.format(Locale.ROOT, "%016x", ++next)
                + "\",\"parentSpanId\":\"" + parent + "\",\"name\":\"" + method + "\",\"kind\":3,"
                + "\"startTimeUnixNano\":\"" + Long.toUnsignedString(start) + "\",\"endTimeUnixNano\":\""
                + Long.toUnsignedString(end) + "\"" + (error != null ? ",\"status\":{\"code\":2}" : "")
                + ",\"attributes\":[" + String.join(",", a) + "]}";
    }

    private static String internal(String trace, String id, String name, long start) {
        return "{\"traceId\":\"" + trace + "\",\"spanId\":\"" + id + "\",\"parentSpanId\":\"\",\"name\":\"" + name
                + "\",\"kind\":1,\"startTimeUnixNano\":\"" + start + "\",\"endTimeUnixNano\":\"" + (start + 5 * SECOND)
                + "\"}";
    }

    private static String toolSpan(String trace, String id, String call, long start, String run) {
        return "{\"traceId\":\"" + trace + "\",\"spanId\":\"" + id + "\",\"parentSpanId\":\"\",\"name\":\"execute_tool"
                + " search\",\"kind\":1,\"startTimeUnixNano\":\"" + start + "\",\"endTimeUnixNano\":\""
                + (start + SECOND / 2) + "\",\"attributes\":[" + attr("gen_ai.operation.name", "execute_tool") + ","
                + attr("gen_ai.tool.name", "search") + "," + attr("gen_ai.tool.call.id", call) + ","
                + attr("retry_audit.run_id", run) + "]}";
    }

    private static String explicit(String trace, String op, long start, int attempt, String run) {
        return "{\"traceId\":\"" + trace + "\",\"spanId\":\"" + String.format(Locale.ROOT, "%016x", ++next)
                + "\",\"parentSpanId\":\"\",\"name\":\"write\",\"kind\":1,\"startTimeUnixNano\":\"" + start
                + "\",\"endTimeUnixNano\":\"" + (start + SECOND) + "\",\"status\":{\"code\":" + (attempt == 1 ? 2 : 1)
                + "},\"attributes\":[" + attr("retry_audit.operation_id", op) + ","
                + intAttr("retry_audit.attempt_id", attempt) + "," + attr("retry_audit.effect", "write") + ","
                + attr("retry_audit.run_id", run) + "]}";
    }

    private static String attr(String key, String value) {
        return "{\"key\":\"" + key + "\",\"value\":{\"stringValue\":\"" + value + "\"}}";
    }

    private static String intAttr(String key, int value) {
        return "{\"key\":\"" + key + "\",\"value\":{\"intValue\":\"" + value + "\"}}";
    }
}

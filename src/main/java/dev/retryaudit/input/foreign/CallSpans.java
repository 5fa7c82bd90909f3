package dev.retryaudit.input.foreign;

import dev.retryaudit.input.reader.ReadContext;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * SDK call spans: an HTTP client span with HTTP client spans of the same method under it records the
 * whole call, not a send. {@code @anthropic-ai/sdk} writes one ({@code anthropic.messages.create},
 * with {@code http.request.resend_count} the call's resends and its final status) over the
 * instrumentation-undici span of each send, and a client instrumented twice does the same. The call
 * span is taken out of the requests to link: its sends are the attempts of one operation, and the
 * resends it counts are checked against the sends found, which are numbered in order.
 */
final class CallSpans {
    private CallSpans() {
    }

    /**
     * Takes the call spans out of the HTTP requests of every linking context ({@code http}, by key),
     * and returns them by the key of the context of their sends (siblings under the call span).
     */
    static Map<String, ForeignSpan> take(Map<String, List<ForeignSpan>> http) {
        Map<String, Set<String>> parents = null;
        for (List<ForeignSpan> bucket : http.values()) {
            ForeignSpan first = bucket.get(0);
            if (!first.parentSpanId.isEmpty()) {
                parents = parents != null ? parents : new HashMap<>();
                parents.computeIfAbsent(first.traceId, t -> new HashSet<>(2)).add(first.parentSpanId);
            }
        }
        if (parents == null) {
            return Map.of();
        }
        Map<String, ForeignSpan> calls = new HashMap<>();
        for (Iterator<List<ForeignSpan>> buckets = http.values().iterator(); buckets.hasNext(); ) {
            List<ForeignSpan> bucket = buckets.next();
            for (Iterator<ForeignSpan> it = bucket.iterator(); it.hasNext(); ) {
                ForeignSpan s = it.next();
                Set<String> ids = parents.get(s.traceId);
                if (ids == null || !ids.contains(s.spanId)) {
                    continue;
                }
                String key = RetryLinker.sendsKey(s);
                if (sendsOf(http.get(key), s)) {
                    calls.put(key, s);
                    it.remove();
                }
            }
            if (bucket.isEmpty()) {
                buckets.remove();
            }
        }
        return calls;
    }

    /** Whether the requests of a context hold a send of the call: one of its method. */
    private static boolean sendsOf(List<ForeignSpan> sends, ForeignSpan call) {
        if (sends == null || sends.get(0).parentSpanId.isEmpty()) {
            return false;
        }
        for (ForeignSpan s : sends) {
            if (s.method != null && s.method.equals(call.method)) {
                return true;
            }
        }
        return false;
    }

    /** Notes a call whose resend count disagrees with the attempts found under it; nothing when they agree or it counts none. */
    static void check(ReadContext ctx, ForeignSpan call, int attempts) {
        Integer resends = call.hop.resendCount;
        if (resends == null || resends + 1 == attempts) {
            return;
        }
        ctx.note(call.line, call.column, "call span " + call.spanId + " (" + call.name + ", " + call.method + " "
                + call.url + ") records " + call.resendSource + " " + resends + " (" + (resends + 1) + " sends), but "
                + attempts + (attempts == 1 ? " attempt is" : " attempts are") + " under it in the export: the "
                + "attempts found are audited, " + (attempts < resends + 1 ? "the sends missing from the export "
                        + "are not" : "the call span counted fewer"));
    }
}

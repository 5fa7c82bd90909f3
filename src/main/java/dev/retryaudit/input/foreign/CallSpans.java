package dev.retryaudit.input.foreign;

import dev.retryaudit.input.reader.ReadContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
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
     * and returns them by the key of the context of their sends (siblings under the call span). Which
     * spans are call spans is decided on the requests as added, so the order the spans were met in
     * decides nothing. A call span sent under another call span (a client instrumented twice under an
     * SDK's span) is a layer of the outer call: its sends join the outermost call's, and it is listed
     * in {@code nested} for a note.
     */
    static Map<String, ForeignSpan> take(Map<String, List<ForeignSpan>> http, List<ForeignSpan> nested) {
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
        Map<String, ForeignSpan> calls = new LinkedHashMap<>();
        for (List<ForeignSpan> bucket : http.values()) {
            for (ForeignSpan s : bucket) {
                Set<String> ids = parents.get(s.traceId);
                if (ids != null && ids.contains(s.spanId) && sendsOf(http.get(LinkingContexts.sendsKey(s)), s)) {
                    calls.put(LinkingContexts.sendsKey(s), s);
                }
            }
        }
        if (calls.isEmpty()) {
            return calls;
        }
        for (Iterator<List<ForeignSpan>> buckets = http.values().iterator(); buckets.hasNext(); ) {
            List<ForeignSpan> bucket = buckets.next();
            bucket.removeIf(s -> calls.get(LinkingContexts.sendsKey(s)) == s);
            if (bucket.isEmpty()) {
                buckets.remove();
            }
        }
        // Each layer's outermost call is found before any layer is taken out, so the depth of nesting decides nothing.
        Map<ForeignSpan, ForeignSpan> outermost = new LinkedHashMap<>();
        for (ForeignSpan call : calls.values()) {
            ForeignSpan outer = call;
            for (int steps = 0; steps < calls.size() && calls.containsKey(parentKey(outer)); steps++) {
                outer = calls.get(parentKey(outer));
            }
            if (outer != call) {
                outermost.put(call, outer);
            }
        }
        Set<String> joined = new HashSet<>();
        outermost.forEach((call, outer) -> {
            calls.remove(LinkingContexts.sendsKey(call));
            List<ForeignSpan> sends = http.remove(LinkingContexts.sendsKey(call));
            if (sends != null) {
                http.computeIfAbsent(LinkingContexts.sendsKey(outer), k -> new ArrayList<>(2)).addAll(sends);
                joined.add(LinkingContexts.sendsKey(outer));
            }
            nested.add(call);
        });
        for (String key : joined) {
            http.get(key).sort(Comparator.comparingLong(s -> s.order));
        }
        return calls;
    }

    /** The key of the context of the sends of the span {@code s} was sent under. */
    private static String parentKey(ForeignSpan s) {
        return "parent\0" + s.traceId + '\0' + s.parentSpanId;
    }

    /** Notes a call span that is a layer of another call span: its sends are audited as the outer call's. */
    static void noteNested(ReadContext ctx, ForeignSpan call) {
        ctx.note(call.line, call.column, "call span " + call.spanId + " (" + call.name + ", " + call.method + " "
                + call.url + ") is sent under another call span of its method: it is a layer of that call, not a "
                + "send, and the sends under it are audited as the outer call's attempts");
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

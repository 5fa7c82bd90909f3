package dev.retryaudit.input.foreign;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import dev.retryaudit.text.Times;

/**
 * The spans that sends stand under without being attempts themselves, and how they join sends into
 * one operation. Sends under sibling spans of the same name (an SDK's span per model request, a method
 * span per tool call as the Java agent's {@code otel.instrumentation.methods.include} makes, a
 * framework's node span per retry) are linked as siblings are: their requests share one linking
 * context. SDK call spans of one request under one parent (Azure's pipeline writes an {@code HTTP POST}
 * span per attempt over each transport send) are one call when they carry the same client request id,
 * or when the later is a retry of the earlier ({@link RetryLink}). The sends under the spans of a tool
 * call, called again or not ({@link ToolCalls}), are that call's attempts: when each of its spans sent
 * one and the same request, the sends are the tool call's one operation, named by the tool (a
 * {@link Fold}); otherwise their requests share one context and the tool call stays an operation of its
 * own.
 */
final class Wrappers {
    /** A tool called again whose sends are its operation: the tool's spans, in order, and its name. */
    record Fold(List<ForeignSpan> tools, String tool) {
    }

    private static final String SIBLINGS = "sends under sibling spans named ";
    /** How far up from a tool span its requests are looked for. */
    private static final int MAX_DEPTH = 8;

    private Wrappers() {
    }

    /**
     * Joins the requests sent under sibling spans of one name ({@code wrappers}, by trace) into the
     * context of the first such span; {@code reasons} learns why, by the key of the context kept.
     */
    static void joinSiblings(Map<String, List<ForeignSpan>> http, Map<String, List<ForeignSpan>> wrappers,
            Map<String, String> reasons) {
        if (wrappers.isEmpty()) {
            return;
        }
        Map<String, ForeignSpan> byId = new HashMap<>();
        wrappers.values().forEach(spans -> spans.forEach(w -> byId.put(w.traceId + '\0' + w.spanId, w)));
        Map<String, String> firstOf = new HashMap<>();
        Map<String, String> into = new LinkedHashMap<>();
        for (String key : http.keySet()) {
            ForeignSpan w = key.startsWith("parent\0") ? byId.get(key.substring("parent\0".length())) : null;
            if (w == null) {
                continue;
            }
            String sibling = w.traceId + '\0' + w.parentSpanId + '\0' + Objects.requireNonNullElse(w.name, "");
            String first = firstOf.putIfAbsent(sibling, key);
            if (first != null) {
                into.put(key, first);
                reasons.put(first, SIBLINGS + w.name);
            }
        }
        move(http, into);
    }

    /**
     * The name of the sibling spans the requests of a context were sent under, from its reason
     * ({@link #joinSiblings}), or null: it names the operation, as a method span names the tool it wraps.
     */
    static String siblingName(String reason) {
        return reason != null && reason.startsWith(SIBLINGS) ? reason.substring(SIBLINGS.length()) : null;
    }

    /**
     * Gives each tool span that no request was sent under the requests that started within its start and
     * end under one of its ancestors ({@code spans}: the wrappers and tool spans of its trace, by span id):
     * OpenInference's tool spans do not become the active context, so the tool's requests stand under
     * whatever span was active, its parent or further up. A tool span that finds none there takes the
     * root requests of its client ({@link #adoptRoots}).
     */
    static void adopt(List<ForeignSpan> tools, Map<String, ForeignSpan> spans, Map<String, List<ForeignSpan>> http) {
        List<ForeignSpan> alone = new ArrayList<>();
        for (ForeignSpan t : tools) {
            String own = LinkingContexts.sendsKey(t);
            if (http.containsKey(own) || t.hop.endedAt == Times.NONE || t.hop.startedAt == Times.NONE) {
                continue;
            }
            List<ForeignSpan> taken = new ArrayList<>();
            String parent = t.parentSpanId;
            for (int depth = 0; depth < MAX_DEPTH && !parent.isEmpty(); depth++) {
                String key = "parent\0" + t.traceId + '\0' + parent;
                List<ForeignSpan> beside = http.get(key);
                for (ForeignSpan s : beside == null ? List.<ForeignSpan>of() : beside) {
                    // Started within the tool's span: its end may be recorded after the tool's (a body read late).
                    if (within(s, t)) {
                        taken.add(s);
                    }
                }
                if (!taken.isEmpty()) {
                    beside.removeAll(taken);
                    if (beside.isEmpty()) {
                        http.remove(key);
                    }
                    http.put(own, taken);
                    break;
                }
                ForeignSpan up = spans.get(parent);
                parent = up == null ? "" : up.parentSpanId;
            }
            ForeignSpan up = spans.get(t.parentSpanId);
            if (taken.isEmpty() && (up == null || up.kind != ForeignSpan.Kind.TOOL)) {
                alone.add(t);
            }
        }
        adoptRoots(alone, http);
    }

    /**
     * Gives the tool spans of one trace that no request was sent under ({@code alone}, none a layer of
     * another tool span) the root requests of their client (the same resource), each a trace of its own,
     * that started within exactly one of their spans and are no resend: LangSmith's spans are not made the active
     * OpenTelemetry context, so the HTTP client's spans of a tool's sends are roots. Only a whole source
     * read at once joins them (its root requests and its tool spans are then linked together).
     */
    private static void adoptRoots(List<ForeignSpan> alone, Map<String, List<ForeignSpan>> http) {
        for (ForeignSpan t : alone) {
            List<ForeignSpan> roots = http.get("client\0" + Objects.requireNonNullElse(t.client, ""));
            if (roots == null) {
                continue;
            }
            List<ForeignSpan> taken = new ArrayList<>();
            for (ForeignSpan s : roots) {
                // A send that says it was sent before (a resend count over 0) belongs to its first send's chain.
                boolean first = s.hop.resendCount == null || s.hop.resendCount == 0;
                if (first && s.parentSpanId.isEmpty() && !s.traceId.equals(t.traceId) && within(s, t)
                        && alone.stream().filter(o -> Objects.equals(o.client, t.client) && within(s, o)).count() == 1) {
                    taken.add(s);
                }
            }
            if (!taken.isEmpty()) {
                roots.removeAll(taken);
                if (roots.isEmpty()) {
                    http.remove("client\0" + Objects.requireNonNullElse(t.client, ""));
                }
                http.put(LinkingContexts.sendsKey(t), taken);
            }
        }
    }

    /** Whether request {@code s} started within tool span {@code t}'s start and end. */
    private static boolean within(ForeignSpan s, ForeignSpan t) {
        return t.hop.startedAt != Times.NONE && t.hop.endedAt != Times.NONE && s.hop.startedAt >= t.hop.startedAt
                && s.hop.startedAt <= t.hop.endedAt;
    }

    /**
     * Joins SDK call spans of one request under one parent that are attempts of one call: the sends of
     * each later one join the first's context, and the later call spans are taken out of {@code calls}.
     */
    static void joinCalls(Map<String, ForeignSpan> calls, Map<String, List<ForeignSpan>> http,
            Map<String, String> reasons) {
        if (calls.size() < 2) {
            return;
        }
        Map<String, ForeignSpan> lastOf = new HashMap<>();
        Map<String, String> firstOf = new HashMap<>();
        Map<String, String> into = new LinkedHashMap<>();
        List<Map.Entry<String, ForeignSpan>> ordered = new ArrayList<>(calls.entrySet());
        ordered.sort((a, b) -> RetryLinker.BY_START.compare(a.getValue(), b.getValue()));
        for (Map.Entry<String, ForeignSpan> e : ordered) {
            ForeignSpan c = e.getValue();
            // Root call spans (each attempt a trace of its own) are one call only by their client request id.
            boolean root = c.parentSpanId.isEmpty();
            String request = (root ? "client\0" + c.client + '\0' + c.hop.clientRequestId
                    : c.traceId + '\0' + c.parentSpanId) + '\0' + c.method + ' ' + Http.normalisedUrl(c.url);
            ForeignSpan last = lastOf.get(request);
            boolean sameId = last != null && c.hop.clientRequestId != null
                    && c.hop.clientRequestId.equals(last.hop.clientRequestId);
            if (last != null && (sameId || !root && RetryLink.reason(last, c, "parent") != null)) {
                String first = firstOf.get(request);
                into.put(e.getKey(), first);
                reasons.put(first, "sends under call spans " + c.name + (sameId ? " with the same client request id"
                        : " of one request, the later a retry"));
                calls.remove(e.getKey());
            } else {
                firstOf.put(request, e.getKey());
            }
            lastOf.put(request, c);
        }
        move(http, into);
    }

    /**
     * The fold of a tool call ({@code tools}: its spans, more than one when it was called again) when each
     * of its spans sent requests and all of them are one request (method, URL and client request id), not
     * to an MCP endpoint: their contexts are taken out of {@code http}, and {@code sends} receives the
     * requests, which are the call's operation, each with the arguments of the tool span it was sent under.
     * Otherwise null: when every request sent under the spans went to an MCP endpoint, they are the tool
     * calls' transport ({@link McpTransport#asTransport}) and are taken out of {@code http}; else the requests
     * sent under the spans join the first's context, so a request sent again is linked as a retry.
     */
    static Fold fold(List<ForeignSpan> tools, Map<String, List<ForeignSpan>> http, Set<String> callKeys,
            List<ForeignSpan> sends, Map<String, String> reasons) {
        List<String> keys = new ArrayList<>(tools.size());
        String request = null;
        boolean one = true;
        for (ForeignSpan t : tools) {
            String key = LinkingContexts.sendsKey(t);
            List<ForeignSpan> under = http.get(key);
            if (under == null || callKeys.contains(key)) {
                one = false;
                continue;
            }
            keys.add(key);
            for (ForeignSpan s : under) {
                String r = s.method + ' ' + Http.normalisedUrl(s.url) + ' ' + s.hop.clientRequestId;
                request = request == null ? r : request;
                // An MCP request's status is not its tool call's outcome: the tool call stays the operation.
                one &= r.equals(request) && !McpTransport.is(s);
            }
        }
        if (one && !keys.isEmpty()) {
            for (ForeignSpan t : tools) {
                // Each send carries its tool call's arguments, where a tool's key argument is read.
                for (ForeignSpan s : http.remove(LinkingContexts.sendsKey(t))) {
                    s.hop.toolArguments = t.toolArguments;
                    sends.add(s);
                }
            }
            return new Fold(tools, tools.get(0).toolName);
        }
        if (McpTransport.asTransport(tools, keys, http)) {
            // Each tools/call request is the transport of the tool span it was sent under: the tool spans are the attempts.
            keys.forEach(http::remove);
            return null;
        }
        if (keys.size() > 1) {
            Map<String, String> into = new LinkedHashMap<>();
            for (int i = 1; i < keys.size(); i++) {
                into.put(keys.get(i), keys.get(0));
            }
            reasons.put(keys.get(0), "sends under the calls of tool " + tools.get(0).toolName + " called again");
            move(http, into);
        }
        return null;
    }

    /**
     * The method every request sent under the spans of a tool call shares, or null when they sent none
     * the export shows or more than one method: a tool that only reads sends GET, and the policy's
     * per-tool effect still comes first ({@code Policy#effectOf}).
     */
    static String method(List<ForeignSpan> tools, Map<String, List<ForeignSpan>> http) {
        String method = null;
        for (ForeignSpan t : tools) {
            List<ForeignSpan> under = http.get(LinkingContexts.sendsKey(t));
            for (ForeignSpan s : under == null ? List.<ForeignSpan>of() : under) {
                if (s.method == null || method != null && !method.equalsIgnoreCase(s.method)) {
                    return null;
                }
                method = s.method;
            }
        }
        return method;
    }

    /** Moves the requests of each context key of {@code into} to the context it names, keeping start order. */
    private static void move(Map<String, List<ForeignSpan>> http, Map<String, String> into) {
        for (Iterator<Map.Entry<String, String>> it = into.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, String> e = it.next();
            List<ForeignSpan> from = http.remove(e.getKey());
            if (from != null) {
                http.computeIfAbsent(e.getValue(), k -> new ArrayList<>(2)).addAll(from);
            }
        }
    }
}

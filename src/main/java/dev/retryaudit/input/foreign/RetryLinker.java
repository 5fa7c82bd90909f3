package dev.retryaudit.input.foreign;

import dev.retryaudit.model.internal.LimitChecks;
import dev.retryaudit.json.JsonPointers;
import dev.retryaudit.input.reader.Drafts;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Effect;
import dev.retryaudit.model.Field;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.values.ParentRef;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The one step between the spans of a foreign format (OTLP, Zipkin, Jaeger) or the entries of a HAR
 * file and operations: spans are {@link #add added} as they are read and grouped once the whole source
 * is read, since the spans of one operation may stand anywhere in it. A span with
 * {@code retry_audit.operation_id} joins that operation. A tool span joins the other spans of its
 * {@code gen_ai.tool.call.id} in its trace, else those of its trace, parent span and tool name. Any
 * other non-HTTP span with explicit attributes joins the spans of its idempotency key, else of its
 * trace, parent span and span name. The HTTP sends under an SDK's call span are one operation
 * ({@link CallSpans}); other HTTP requests are linked within their context (siblings under one parent
 * span; root spans of one client, whatever their thread, across traces; the entries of one HAR page)
 * by {@link RequestChains}. Each operation records why its attempts were joined
 * ({@link Operation#groupedBy}); a root resend that no earlier send could be linked to starts an
 * operation of its own, with a note. The spans of gRPC calls are linked by {@link GrpcCalls}. An
 * explicit {@code retry_audit.attempt_id} always wins.
 */
public final class RetryLinker {
    static final Comparator<ForeignSpan> BY_START = (a, b) -> {
        int byTime = Long.compareUnsigned(a.startNanos, b.startNanos);
        if (byTime != 0) {
            return byTime;
        }
        int byResend = Integer.compare(a.resends(), b.resends());
        return byResend != 0 ? byResend : Long.compare(a.order, b.order);
    };

    /** The key of the one linking context of a source's gRPC spans, which its linking completes in place. */
    public static final String GRPC_CONTEXT = "g";
    /** The prefix of a trace's linking context: its tool spans, wrappers and requests sent under a parent span. */
    private static final String TRACE = "a";

    private final Map<String, List<ForeignSpan>> explicit = new LinkedHashMap<>();
    /** Tool spans by trace: an agent run's calls of a tool are linked over the whole trace ({@link ToolCalls}). */
    private final Map<String, List<ForeignSpan>> tools = new LinkedHashMap<>();
    /** The spans of no attempt that sends may stand under, by trace ({@link Wrappers}). */
    private final Map<String, List<ForeignSpan>> wrappers = new LinkedHashMap<>();
    private final Map<String, List<ForeignSpan>> http = new LinkedHashMap<>();
    private final Map<String, List<ForeignSpan>> other = new LinkedHashMap<>();
    private final GrpcCalls grpc = new GrpcCalls();
    /** The HTTP request added last and the key of its context. */
    private ForeignSpan lastHttp;
    private String lastHttpKey;

    /**
     * One operation's spans, how to number its attempts, why they were joined (null for one span),
     * where its first span stands in the source, and the SDK call span its spans are the sends of (or null).
     */
    private record Group(List<ForeignSpan> spans, boolean byResendCount, String groupedBy, long firstOrder,
            ForeignSpan call, Wrappers.Fold fold, String method, String name) {
        Group(List<ForeignSpan> spans, boolean byResendCount, String groupedBy) {
            this(spans, byResendCount, groupedBy, null);
        }

        Group(List<ForeignSpan> spans, boolean byResendCount, String groupedBy, ForeignSpan call) {
            this(spans, byResendCount, spans.size() > 1 ? groupedBy : null, firstOrder(spans), call, null, null, null);
        }

        /** This group with {@code method} for its operation: the one the requests sent under a tool's spans share. */
        Group withMethod(String method) {
            return new Group(spans, byResendCount, groupedBy, firstOrder, call, fold, method, name);
        }

        /** This group with {@code name} for its operation's tool: the span its requests were sent under names it. */
        Group named(String name) {
            return new Group(spans, byResendCount, groupedBy, firstOrder, call, fold, method, name);
        }

        /** The spans whose children this group's attempts are parents of: its own, and a folded tool's spans. */
        List<ForeignSpan> parents() {
            if (fold == null) {
                return spans;
            }
            List<ForeignSpan> out = new ArrayList<>(spans);
            out.addAll(fold.tools());
            return out;
        }

        /** The sends of a tool called again, as the one operation the tool's calls are ({@link Wrappers.Fold}). */
        Group(List<ForeignSpan> spans, String groupedBy, Wrappers.Fold fold) {
            this(spans, false, groupedBy, Math.min(firstOrder(spans), firstOrder(fold.tools())), null, fold, null,
                    fold.tool());
        }

        /**
         * The span the operation's first span stands under: the call span's parent for the sends of a call,
         * the first tool span's for the sends of a tool called again.
         */
        ForeignSpan under() {
            return call != null ? call : fold != null ? fold.tools().get(0) : spans.get(0);
        }

        private static long firstOrder(List<ForeignSpan> spans) {
            long first = Long.MAX_VALUE;
            for (int i = 0; i < spans.size(); i++) {
                first = Math.min(first, spans.get(i).order);
            }
            return first;
        }
    }

    /** Adds {@code s} unless its {@code trace/span} key is one of {@code leftOut}. */
    public void add(ForeignSpan s, Set<String> leftOut) {
        if (leftOut.isEmpty() || !leftOut.contains(s.traceId + "/" + s.spanId)) {
            add(s);
        }
    }

    public void add(ForeignSpan s) {
        if (s.operationId != null) {
            bucket(explicit, s.operationId).add(s);
        } else if (s.kind == ForeignSpan.Kind.TOOL) {
            bucket(tools, s.traceId).add(s);
        } else if (s.kind == ForeignSpan.Kind.WRAPPER) {
            bucket(wrappers, s.traceId).add(s);
        } else if (s.kind == ForeignSpan.Kind.HTTP) {
            bucket(http, httpKey(s)).add(s);
        } else if (s.kind == ForeignSpan.Kind.GRPC) {
            grpc.add(s);
        } else {
            String key = s.hop.idempotencyKey != null ? "k" + s.hop.idempotencyKey
                    : "s" + s.traceId + '\0' + s.parentSpanId + '\0' + Objects.requireNonNullElse(s.name, "");
            bucket(other, key).add(s);
        }
    }

    /**
     * The key of an HTTP request's linking context; the one of the request added before when every field
     * it is made of is the same instance (as pooled ids and names are), which spares a string a request.
     */
    private String httpKey(ForeignSpan s) {
        ForeignSpan last = lastHttp;
        if (last == null || last.traceId != s.traceId || last.parentSpanId != s.parentSpanId
                || last.client != s.client || last.runId != s.runId) {
            lastHttpKey = context(s) + '\0' + contextKey(s);
        }
        lastHttp = s;
        return lastHttpKey;
    }

    /**
     * What an HTTP request is linked within, in words: its parent span, its client (root spans of one
     * resource, whatever their thread: a reactive client sends a retry on another thread), or its HAR page.
     */
    static String context(ForeignSpan s) {
        if (!s.parentSpanId.isEmpty()) {
            return "parent";
        }
        return !s.traceId.isEmpty() ? "client" : "page";
    }

    private static String contextKey(ForeignSpan s) {
        if (!s.parentSpanId.isEmpty()) {
            return s.traceId + '\0' + s.parentSpanId;
        }
        if (!s.traceId.isEmpty()) {
            return Objects.requireNonNullElse(s.client, "");
        }
        return Objects.requireNonNullElse(s.runId, "");
    }

    /** The key of the linking context of the requests sent under {@code call} (its children). */
    static String sendsKey(ForeignSpan call) {
        return "parent\0" + call.traceId + '\0' + call.spanId;
    }

    private static List<ForeignSpan> bucket(Map<String, List<ForeignSpan>> map, String key) {
        return map.computeIfAbsent(key, k -> new ArrayList<>(2));
    }

    /**
     * One operation as linked, before its parent is known: the key ({@code trace/span}) of the span its
     * first span was a child of (null for a root span), the attempts its spans became, by the same
     * key (for the operations whose parent they are), and where its first span stands in the source.
     */
    public record Linked(Operation operation, String parentKey, Map<String, ParentRef> offers, long firstOrder) {
        /** The operation with {@code parent} (its parent's attempt, or null when it has none). */
        public Operation withParent(ParentRef parent) {
            return RetryLinker.withParent(operation, parent);
        }
    }

    /**
     * {@code op}, linked without its parent, with {@code parent} for it: unchanged when {@code parent} is null
     * or one of its own attempts (a span under a span of the same operation).
     */
    public static Operation withParent(Operation op, ParentRef parent) {
        return parent == null || parent.operation().equals(op.id()) ? op
                : op.toBuilder().parent(parent.operation(), parent.attempt()).build();
    }

    /**
     * The keys of the linking contexts of the spans added (one per group of spans that are linked
     * together and only together), in the order first seen.
     */
    public List<String> contexts() {
        Set<String> out = new LinkedHashSet<>();
        explicit.keySet().forEach(k -> out.add("e" + k));
        tools.keySet().forEach(k -> out.add(TRACE + k));
        http.keySet().forEach(k -> out.add(httpContext(k)));
        wrappers.keySet().forEach(k -> out.add(TRACE + k));
        other.keySet().forEach(k -> out.add("o" + k));
        // A gRPC call's spans (call, attempts, server spans, the calls it repeats) may stand anywhere: one context.
        if (!grpc.isEmpty()) {
            out.add(GRPC_CONTEXT);
        }
        return new ArrayList<>(out);
    }

    /**
     * The context of the requests of HTTP bucket {@code key}: a request sent under a parent span is
     * linked with the rest of its trace (tool spans, wrappers, the requests under other spans of it),
     * a root request within its client's or page's context.
     */
    private static String httpContext(String key) {
        if (key.startsWith("parent\0")) {
            int end = key.indexOf('\0', "parent\0".length());
            return TRACE + key.substring("parent\0".length(), end);
        }
        return "h" + key;
    }

    /**
     * The spans added by the key of their linking context ({@link #contexts}), in the order first seen,
     * for a caller that links each context apart; the gRPC context's list is empty (its linking reads its
     * spans anew). An HTTP request that may be an SDK call span is also in the context its sends would
     * form ({@link CallSpans}), where its sends, wherever they stand, find it.
     */
    public Map<String, List<ForeignSpan>> byContext() {
        Map<String, List<ForeignSpan>> out = new LinkedHashMap<>();
        explicit.forEach((k, v) -> out.put("e" + k, new ArrayList<>(v)));
        tools.forEach((k, v) -> out.computeIfAbsent(TRACE + k, c -> new ArrayList<>()).addAll(v));
        http.forEach((k, v) -> out.computeIfAbsent(httpContext(k), c -> new ArrayList<>()).addAll(v));
        wrappers.forEach((k, v) -> out.computeIfAbsent(TRACE + k, c -> new ArrayList<>()).addAll(v));
        other.forEach((k, v) -> out.put("o" + k, new ArrayList<>(v)));
        // A root request may be a call span whose sends are in its trace's context; one sent under a parent is there already.
        http.values().forEach(spans -> spans.forEach(s -> {
            if (s.method != null && s.parentSpanId.isEmpty() && !s.traceId.isEmpty()) {
                out.computeIfAbsent(httpContext(sendsKey(s)), k -> new ArrayList<>(1)).add(s);
            }
        }));
        if (!grpc.isEmpty()) {
            out.put(GRPC_CONTEXT, List.of());
        }
        return out;
    }

    /**
     * What tells the SDK call spans among the HTTP requests added, as pairs of a span's {@code trace/span}
     * key and a fact about that span: {@code c} with its method and the key of its own context for each
     * request that may be a call span, {@code s} with its method for each request sent under another span.
     * Gathered by key from a whole source, the facts of one span say whether it is a call span
     * ({@link #callSpan}).
     */
    public List<String[]> callFacts() {
        List<String[]> out = new ArrayList<>();
        http.forEach((key, spans) -> spans.forEach(s -> {
            if (s.method != null) {
                // Only a root request's own context differs from its sends'.
                if (s.parentSpanId.isEmpty() && !s.traceId.isEmpty()) {
                    out.add(new String[] {s.traceId + "/" + s.spanId, "c" + s.method + '\0' + httpContext(key)});
                }
                if (!s.parentSpanId.isEmpty()) {
                    out.add(new String[] {s.traceId + "/" + s.parentSpanId, "s" + s.method});
                }
            }
        }));
        return out;
    }

    /**
     * The key of the own linking context of the span whose {@link #callFacts} are {@code facts}, when it
     * is an SDK call span (a request sent under it has its method): that context must leave it out, since
     * it is linked with its sends. Null when it is no call span.
     */
    public static String callSpan(Iterable<String> facts) {
        Set<String> sent = new HashSet<>();
        List<String> calls = new ArrayList<>(1);
        for (String f : facts) {
            if (f.charAt(0) == 's') {
                sent.add(f.substring(1));
            } else {
                calls.add(f.substring(1));
            }
        }
        for (String c : calls) {
            int end = c.indexOf('\0');
            if (sent.contains(c.substring(0, end))) {
                return c.substring(end + 1);
            }
        }
        return null;
    }

    /**
     * Forgets the spans of every linking context but {@code context} (one of {@link #contexts}). An SDK
     * call span held with its sends ({@link CallSpans}) goes with their context, not its own, so that
     * the context is linked as it is when every span is held.
     */
    public void keep(String context) {
        Map<String, ForeignSpan> calls = CallSpans.take(http, new ArrayList<>());
        explicit.keySet().removeIf(k -> !context.equals("e" + k));
        tools.keySet().removeIf(k -> !context.equals(TRACE + k));
        wrappers.keySet().removeIf(k -> !context.equals(TRACE + k));
        http.keySet().removeIf(k -> !context.equals(httpContext(k)));
        other.keySet().removeIf(k -> !context.equals("o" + k));
        calls.forEach((sendsKey, call) -> {
            if (context.equals(httpContext(sendsKey))) {
                bucket(http, context(call) + '\0' + contextKey(call)).add(call);
            }
        });
        if (!context.equals(GRPC_CONTEXT)) {
            grpc.clear();
        }
    }

    /** Every span added, in no particular order. */
    public List<ForeignSpan> spans() {
        List<ForeignSpan> out = new ArrayList<>();
        for (Map<String, List<ForeignSpan>> map : List.of(explicit, tools, http, wrappers, other)) {
            map.values().forEach(out::addAll);
        }
        out.addAll(grpc.spans());
        return out;
    }

    /**
     * Hands every operation to the sink in the order of its first span, each as soon as it is built;
     * with pointers only for a single document (records already placed by their reader keep their
     * place). The operations whose spans are parents of others are numbered first, for their children.
     */
    public void emit(ReadContext ctx, boolean pointers) throws InputException {
        List<Group> groups = groups(ctx, null);
        Map<String, Set<String>> parents = parents(groups);
        Map<String, ParentRef> attemptsBySpan = new HashMap<>();
        if (!parents.isEmpty()) {
            for (Group g : groups) {
                for (ForeignSpan s : g.parents()) {
                    if (isParent(parents, s)) {
                        List<Attempt> attempts = Hop.attempts(hops(g, ctx, pointers), g.byResendCount());
                        attemptsBySpan.putAll(offers(g, id(g, ctx), attempts, parents, false));
                        break;
                    }
                }
            }
        }
        for (int i = 0; i < groups.size(); i++) {
            Linked l = linked(groups.set(i, null), ctx, pointers, parents, false, null);
            ctx.sink().accept(l.withParent(l.parentKey() == null ? null : attemptsBySpan.get(l.parentKey())));
        }
    }

    /**
     * The operations of the spans added, in the order of their first span, without their parents:
     * a parent needs the attempt numbers of every operation. Each offers its attempts by span key to the
     * operations that are its children: within the spans added only ({@code allOffers} false), or to any
     * operation (true), for a caller that links the spans of one source in parts.
     */
    public List<Linked> link(ReadContext ctx, boolean pointers, boolean allOffers) throws InputException {
        return link(ctx, pointers, allOffers, null);
    }

    /**
     * The operations as {@link #link(ReadContext, boolean, boolean)} gives them; with {@code parts}, for a
     * source linked in parts, the linking's notes go there, each at its place in the order the reader
     * makes them, and the counts over the source's requests are counted there.
     */
    public List<Linked> link(ReadContext ctx, boolean pointers, boolean allOffers, NoteParts parts)
            throws InputException {
        List<Group> groups = groups(ctx, parts);
        Map<String, Set<String>> parents = parents(groups);
        // Operations are built without their parents, dropping spans as they go.
        List<Linked> out = new ArrayList<>(groups.size());
        for (int i = 0; i < groups.size(); i++) {
            out.add(linked(groups.set(i, null), ctx, pointers, parents, allOffers, parts));
        }
        return out;
    }

    /** A context that keeps the notes made in it apart, to be placed in {@code parts}; {@code ctx} when there are none. */
    private static ReadContext notes(ReadContext ctx, NoteParts parts) {
        return parts == null ? ctx : new ReadContext(ctx.source(), ctx.sourceIndex(), java.io.InputStream.nullInputStream(),
                null, ctx.limits(), null);
    }

    /** Moves the notes made in {@code scratch} to {@code parts}, at {@code phase} and {@code order}. */
    private static void place(ReadContext scratch, NoteParts parts, int phase, long order) {
        if (parts != null) {
            parts.add(scratch, phase, order);
        }
    }

    /** The groups of the spans added, each ordered by start, in the order of their first spans; forgets the spans. */
    private List<Group> groups(ReadContext ctx, NoteParts parts) {
        List<Group> groups = new ArrayList<>();
        for (List<ForeignSpan> spans : explicit.values()) {
            groups.add(new Group(spans, false, "retry_audit.operation_id"));
        }
        List<ForeignSpan> nested = new ArrayList<>();
        Map<String, ForeignSpan> calls = CallSpans.take(http, nested);
        for (ForeignSpan call : nested) {
            ReadContext layer = notes(ctx, parts);
            CallSpans.noteNested(layer, call);
            place(layer, parts, NoteParts.CHAINS, call.order);
        }
        Abandoned.note(ctx, http.values(), parts);
        Set<String> toolSpans = new HashSet<>();
        tools.values().forEach(spans -> spans.forEach(t -> toolSpans.add(t.traceId)));
        McpTransport.note(ctx, http.values(), toolSpans, parts);
        Unlinkable.note(ctx, http.values(), parts);
        ModelCalls.note(ctx, wrappers.values(), http.keySet(), parts);
        Map<String, String> joined = new HashMap<>();
        Wrappers.joinCalls(calls, http, joined);
        Wrappers.joinSiblings(http, wrappers, joined);
        toolGroups(groups, calls.keySet(), joined, ctx, parts);
        for (Map.Entry<String, List<ForeignSpan>> bucket : http.entrySet()) {
            ForeignSpan call = calls.get(bucket.getKey());
            String join = joined.get(bucket.getKey());
            if (call != null) {
                // Numbered in order: a send missing from the export is the call span's note, not a gap.
                groups.add(new Group(bucket.getValue(), false,
                        join != null ? join : "sends under call span " + call.name, call));
                continue;
            }
            // The reader meets a context's requests in the order of the first one it read.
            long first = Group.firstOrder(bucket.getValue());
            ReadContext notes = notes(ctx, parts);
            String wrapper = Wrappers.siblingName(join);
            for (RequestChains.Chain chain : RequestChains.split(bucket.getValue(), notes)) {
                String reasons = chain.reasons == null ? null : String.join("; ", chain.reasons);
                Group group = new Group(chain.spans, !chain.unlinkedResend,
                        join == null || reasons == null ? reasons : join + "; " + reasons);
                groups.add(reasons != null && wrapper != null ? group.named(wrapper) : group);
            }
            place(notes, parts, NoteParts.CHAINS, first);
        }
        ReadContext grpcNotes = notes(ctx, parts);
        for (GrpcCalls.Chain chain : grpc.chains(grpcNotes)) {
            groups.add(new Group(chain.spans(), false, chain.groupedBy()));
        }
        place(grpcNotes, parts, NoteParts.GRPC, 0);
        for (List<ForeignSpan> spans : other.values()) {
            groups.add(new Group(spans, false,
                    spans.get(0).hop.idempotencyKey != null ? "idempotency key" : "same parent and span name"));
        }
        explicit.clear();
        tools.clear();
        wrappers.clear();
        http.clear();
        other.clear();
        grpc.clear();
        groups.sort(Comparator.comparingLong(Group::firstOrder));
        for (Group g : groups) {
            g.spans().sort(BY_START);
        }
        return groups;
    }

    /**
     * The groups of the tool spans of each trace ({@link ToolCalls}): a tool called again whose sends are
     * one request becomes the operation of those sends ({@link Wrappers#fold}); any other tool call is an
     * operation of its spans, whose effect the requests sent under them tell. {@code calls} are the
     * contexts of SDK call spans' sends, which stay theirs.
     */
    private void toolGroups(List<Group> groups, Set<String> calls, Map<String, String> joined, ReadContext ctx,
            NoteParts parts) {
        for (Map.Entry<String, List<ForeignSpan>> trace : tools.entrySet()) {
            List<ForeignSpan> spans = trace.getValue();
            ReadContext notes = notes(ctx, parts);
            long first = Group.firstOrder(spans);
            Map<String, ForeignSpan> byId = new HashMap<>();
            for (ForeignSpan s : wrappers.getOrDefault(trace.getKey(), List.of())) {
                byId.put(s.spanId, s);
            }
            spans.forEach(s -> byId.put(s.spanId, s));
            Wrappers.adopt(spans, byId, http);
            for (ToolCalls.Call call : ToolCalls.split(spans, notes)) {
                String method = Wrappers.method(call.spans, http);
                List<ForeignSpan> sends = new ArrayList<>();
                Wrappers.Fold fold = Wrappers.fold(call.spans, http, calls, sends, joined);
                if (fold != null) {
                    sends.sort(BY_START);
                    String why = call.spans.size() > 1 ? call.groupedBy + "; the sends of tool " + fold.tool()
                            + " called again" : "sends under tool call " + fold.tool();
                    groups.add(new Group(sends, why, fold));
                    continue;
                }
                groups.add(new Group(call.spans, false, call.groupedBy, null).withMethod(method));
            }
            place(notes, parts, NoteParts.CHAINS, first);
        }
    }

    /** The ids of the spans that the first span of a group (or its call span) is a child of, by trace id. */
    private static Map<String, Set<String>> parents(List<Group> groups) {
        Map<String, Set<String>> parents = new HashMap<>();
        for (Group g : groups) {
            ForeignSpan first = g.under();
            if (!first.parentSpanId.isEmpty()) {
                parents.computeIfAbsent(first.traceId, t -> new HashSet<>(2)).add(first.parentSpanId);
            }
        }
        return parents;
    }

    private static boolean isParent(Map<String, Set<String>> parents, ForeignSpan s) {
        Set<String> ids = parents.get(s.traceId);
        return ids != null && ids.contains(s.spanId);
    }

    /** The hops of a group's spans, each placed in the source. */
    private static List<Hop> hops(Group g, ReadContext ctx, boolean pointers) {
        List<Hop> hops = new ArrayList<>(g.spans().size());
        for (ForeignSpan s : g.spans()) {
            if (s.hop.location == null) {
                s.hop.location = ctx.location(s.line, s.column, pointers ? s.pointer() : null);
            }
            hops.add(s.hop);
        }
        return hops;
    }

    /** The id of a group's operation: the explicit one, else its first span's place, else trace/span (or tool call). */
    private static String id(Group g, ReadContext ctx) {
        ForeignSpan first = g.fold() != null ? g.fold().tools().get(0) : g.spans().get(0);
        return first.operationId != null ? first.operationId
                : first.placeIsId ? ctx.source() + "#" + first.pointer()
                : first.traceId + "/" + (first.kind == ForeignSpan.Kind.TOOL && first.toolCallId != null
                        ? first.toolCallId : first.spanId);
    }

    /** The attempts of operation {@code id} by the keys of the spans they came from, for those spans that are parents. */
    private static Map<String, ParentRef> offers(Group g, String id, List<Attempt> attempts,
            Map<String, Set<String>> parents, boolean allOffers) {
        Map<String, ParentRef> offers = Map.of();
        if (!allOffers && parents.isEmpty()) {
            return offers;
        }
        for (ForeignSpan s : g.parents()) {
            if (allOffers || isParent(parents, s)) {
                String spanKey = s.traceId + "/" + s.spanId;
                // A folded tool's span offers the attempt of the first request sent under it.
                String sent = s.kind == ForeignSpan.Kind.TOOL && g.fold() != null ? firstSentUnder(g, s) : s.spanId;
                for (Attempt a : attempts) {
                    if (a.spanId().equals(sent)) {
                        offers = offers.isEmpty() ? new HashMap<>(4) : offers;
                        offers.put(spanKey, new ParentRef(id, a.attemptId()));
                    }
                }
            }
        }
        return offers;
    }

    /** The span id of the first of a folded group's requests sent under tool span {@code tool}, or null. */
    private static String firstSentUnder(Group g, ForeignSpan tool) {
        for (ForeignSpan s : g.spans()) {
            if (s.parentSpanId.equals(tool.spanId) && s.traceId.equals(tool.traceId)) {
                return s.spanId;
            }
        }
        return null;
    }

    /** One group's operation, without its parent. */
    private static Linked linked(Group g, ReadContext ctx, boolean pointers, Map<String, Set<String>> parents,
            boolean allOffers, NoteParts parts)
            throws InputException {
        List<ForeignSpan> spans = g.spans();
        List<Attempt> attempts = Hop.attempts(hops(g, ctx, pointers), g.byResendCount());
        int limit = ctx.limits().attemptsPerOperation();
        LimitChecks.attempts(ctx.limits(), attempts.size(), "operation", "attempts", detail -> {
            Location l = attempts.get(limit).location();
            return InputException.rejected(l.source(), l.line(), l.column(), Drafts.pathOf(l), detail);
        });
        if (g.call() != null) {
            ReadContext notes = notes(ctx, parts);
            CallSpans.check(notes, g.call(), attempts.size());
            place(notes, parts, NoteParts.CALLS, g.firstOrder());
        }
        ForeignSpan under = g.under();
        String id = id(g, ctx);
        Map<String, ParentRef> offers = offers(g, id, attempts, parents, allOffers);
        String parentKey = under.parentSpanId.isEmpty() ? null : under.traceId + "/" + under.parentSpanId;
        return new Linked(operation(id, g, attempts), parentKey, offers, g.firstOrder());
    }

    /** The operation of {@code spans}, but for its parent. */
    private static Operation operation(String id, Group g, List<Attempt> attempts) throws InputException {
        List<ForeignSpan> spans = g.spans();
        String groupedBy = g.groupedBy();
        ForeignSpan first = spans.get(0);
        String runId = null;
        Effect effect = null;
        String toolName = null;
        ForeignSpan runFrom = null;
        ForeignSpan effectFrom = null;
        EnumSet<Field> carried = EnumSet.noneOf(Field.class);
        for (ForeignSpan s : spans) {
            if (s.runId != null) {
                if (runId != null && !runId.equals(s.runId)) {
                    throw disagreement(s, "retry_audit.run_id", runFrom);
                }
                runId = s.runId;
                runFrom = s;
            }
            if (s.effect != null) {
                if (effect != null && effect != s.effect) {
                    throw disagreement(s, "retry_audit.effect", effectFrom);
                }
                effect = s.effect;
                effectFrom = s;
            }
            toolName = toolName != null ? toolName : s.toolName;
            Hop h = s.hop;
            if (s.spanId != null) {
                carried.add(Field.SPAN_ID);
            }
            if (s.requestHeaders || h.idempotencyKey != null) {
                carried.add(Field.IDEMPOTENCY_KEY);
            }
            if (h.commitState != null) {
                carried.add(Field.COMMIT_STATE);
            }
            if (h.retryReason != null) {
                carried.add(Field.RETRY_REASON);
            }
            if (h.requestHash != null) {
                carried.add(Field.REQUEST_HASH);
            }
        }
        toolName = g.name() != null ? g.name() : toolName;
        if (toolName == null) {
            toolName = first.method != null ? Http.toolName(first.method, first.host)
                    : first.name != null && !first.name.isEmpty() ? first.name : "span";
        }
        String key = null;
        for (Attempt a : attempts) {
            key = key != null ? key : a.idempotencyKey();
        }
        return Operation.builder().id(id).tool(toolName).effect(effect)
                .method(first.method != null ? first.method : g.method()).target(first.url)
                .idempotencyKey(key).runId(runId != null ? runId : first.traceId.isEmpty() ? null : first.traceId)
                .serverClock(first.server).attempts(attempts).carried(CarriedFields.of(carried)).groupedBy(groupedBy)
                .at(first.hop.location).build();
    }

    private static InputException disagreement(ForeignSpan s, String attribute, ForeignSpan earlier) {
        Location l = s.hop.location;
        String path = JsonPointers.toPath(s.pointer()) + ".attributes";
        return InputException.rejected(l.source(), l.line(), l.column(), path,
                attribute + " disagrees with the span at line " + earlier.line + " of the same operation");
    }
}

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
import java.util.List;
import java.util.Map;
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
 * explicit {@code retry_audit.attempt_id} always wins. The spans are held by their linking contexts
 * ({@link LinkingContexts}, the protocol that batch readers, {@code serve} and the Spark job share); this
 * class groups them. Its methods that only pass a span or a context on are the readers' way in.
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


    /** The spans to group, by linking context; emptied as they are grouped. */
    private final LinkingContexts held;
    private final Map<String, List<ForeignSpan>> explicit;
    private final Map<String, List<ForeignSpan>> tools;
    private final Map<String, List<ForeignSpan>> wrappers;
    private final Map<String, List<ForeignSpan>> http;
    private final Map<String, List<ForeignSpan>> other;
    private final GrpcCalls grpc;

    /** A linker of the spans a reader adds. */
    public RetryLinker() {
        this(new LinkingContexts());
    }

    /** A linker of the spans of {@code held}. */
    RetryLinker(LinkingContexts held) {
        this.held = held;
        this.explicit = held.explicit;
        this.tools = held.tools;
        this.wrappers = held.wrappers;
        this.http = held.http;
        this.other = held.other;
        this.grpc = held.grpc;
    }

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

    /** The spans read, by linking context: what the protocol holds of them. */
    public LinkingContexts held() {
        return held;
    }

    /** Adds {@code s} ({@link LinkingContexts#add}). */
    public void add(ForeignSpan s) {
        held.add(s);
    }

    /** Adds {@code s} unless its {@code trace/span} key is one of {@code leftOut} ({@link LinkingContexts#add}). */
    public void add(ForeignSpan s, Set<String> leftOut) {
        held.add(s, leftOut);
    }

    /** Every span added ({@link LinkingContexts#spans}). */
    public List<ForeignSpan> spans() {
        return held.spans();
    }

    /** The keys of the linking contexts of the spans added ({@link LinkingContexts#contexts}). */
    public List<String> contexts() {
        return held.contexts();
    }

    /**
     * One operation as linked, before its parent is known: the key ({@code trace/span}) of the span its
     * first span was a child of (null for a root span), the attempts its spans became, by the same
     * key (for the operations whose parent they are), and where its first span stands in the source.
     */
    public record Linked(Operation operation, String parentKey, Map<String, ParentRef> offers, long firstOrder) {
        /** The operation with {@code parent} (its parent's attempt, or null when it has none). */
        public Operation withParent(ParentRef parent) {
            return ParentOffers.withParent(operation, parent);
        }
    }

    /**
     * Hands every operation to the sink in the order of its first span, each as soon as it is built;
     * with pointers only for a single document (records already placed by their reader keep their
     * place). The operations whose spans are parents of others are numbered first, for their children.
     */
    public void emit(ReadContext ctx, boolean pointers) throws InputException {
        List<Group> groups = groups(ctx, null);
        Map<String, Set<String>> parents = parents(groups);
        ParentOffers offers = new ParentOffers();
        if (!parents.isEmpty()) {
            for (Group g : groups) {
                for (ForeignSpan s : g.parents()) {
                    if (isParent(parents, s)) {
                        List<Attempt> attempts = Hop.attempts(hops(g, ctx, pointers), g.byResendCount());
                        offers.offer(offers(g, id(g, ctx), attempts, parents, false), g.firstOrder());
                        break;
                    }
                }
            }
        }
        for (int i = 0; i < groups.size(); i++) {
            ctx.sink().accept(offers.parented(linked(groups.set(i, null), ctx, pointers, parents, false, null)));
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
    private List<Group> groups(ReadContext ctx, NoteParts parts) throws InputException {
        List<Group> groups = new ArrayList<>();
        held.dropCopies();
        held.duplicates.note(ctx, parts);
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
        held.clear();
        groups.sort(Comparator.comparingLong(Group::firstOrder));
        for (Group g : groups) {
            g.spans().sort(BY_START);
        }
        UncapturedWaits.note(ctx, groups.stream().map(Group::spans).toList(), parts);
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

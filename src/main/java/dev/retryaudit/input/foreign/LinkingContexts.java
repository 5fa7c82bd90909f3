package dev.retryaudit.input.foreign;

import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.model.internal.InputException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The one linking protocol: attempt spans held by the linking context they belong to, each context a
 * set of spans that are linked together and only together, and linked into operations by
 * {@link RetryLinker}. A span with {@code retry_audit.operation_id} is in the context of that
 * operation; a tool span, a wrapper and a request sent under a parent span in their trace's; a root
 * request in its client's (or its HAR page's); a gRPC span in the one gRPC context; any other span in
 * the context of its idempotency key, else of its trace, parent and name. The batch readers add a whole
 * source and {@link #emit} it; a receiver ({@code serve}) holds spans by {@link #of their context} and
 * hands the spans of contexts that closed to a fresh instance to {@link #link}; an engine that splits a
 * source (Spark) routes spans by {@link #byContext}, tells SDK call spans by {@link #callFacts} and
 * {@link #callSpan}, and links each context apart after {@link #keep}. Operations linked apart get
 * their parents from {@link ParentOffers}. Copies of one span (an export sent or written twice) are read
 * once ({@link DuplicateSpans}). Not thread-safe.
 */
public final class LinkingContexts {
    /** The key of the one linking context of a source's gRPC spans, which its linking completes in place. */
    public static final String GRPC_CONTEXT = "g";
    /** The prefix of a trace's linking context: its tool spans, wrappers and requests sent under a parent span. */
    private static final String TRACE = "a";
    private static final String PARENT = "parent\0";

    final Map<String, List<ForeignSpan>> explicit = new LinkedHashMap<>();
    /** Tool spans by trace: an agent run's calls of a tool are linked over the whole trace ({@link ToolCalls}). */
    final Map<String, List<ForeignSpan>> tools = new LinkedHashMap<>();
    /** The spans of no attempt that sends may stand under, by trace ({@link Wrappers}). */
    final Map<String, List<ForeignSpan>> wrappers = new LinkedHashMap<>();
    /** HTTP requests by the key of their bucket: their parent span, else their client or HAR page. */
    final Map<String, List<ForeignSpan>> http = new LinkedHashMap<>();
    final Map<String, List<ForeignSpan>> other = new LinkedHashMap<>();
    final GrpcCalls grpc = new GrpcCalls();
    final DuplicateSpans duplicates = new DuplicateSpans();
    /** The HTTP request added last and the key of its bucket. */
    private ForeignSpan lastHttp;
    private String lastHttpKey;

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
            bucket(other, otherKey(s)).add(s);
        }
    }

    /** The key of the linking context of span {@code s}: the one {@link #contexts} gives for it alone. */
    public static String of(ForeignSpan s) {
        if (s.operationId != null) {
            return "e" + s.operationId;
        }
        return switch (s.kind) {
            case TOOL, WRAPPER -> TRACE + s.traceId;
            // A request under a parent span is linked within its trace: that key, without the bucket's made first.
            case HTTP -> !s.parentSpanId.isEmpty() && s.traceId.indexOf('\0') < 0 ? TRACE + s.traceId
                    : httpContext(context(s) + '\0' + contextKey(s));
            case GRPC -> GRPC_CONTEXT;
            default -> "o" + otherKey(s);
        };
    }

    /** The key of the context of trace {@code traceId}: its tool spans, wrappers and requests sent under a parent span. */
    static String traceContext(String traceId) {
        return TRACE + traceId;
    }

    private static String otherKey(ForeignSpan s) {
        return s.hop.idempotencyKey != null ? "k" + s.hop.idempotencyKey
                : "s" + s.traceId + '\0' + s.parentSpanId + '\0' + Objects.requireNonNullElse(s.name, "");
    }

    /**
     * The key of an HTTP request's bucket; the one of the request added before when every field it is
     * made of is the same instance (as pooled ids and names are), which spares a string a request.
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

    /** The key of the bucket of the requests sent under {@code call} (its children). */
    static String sendsKey(ForeignSpan call) {
        return PARENT + call.traceId + '\0' + call.spanId;
    }

    private static List<ForeignSpan> bucket(Map<String, List<ForeignSpan>> map, String key) {
        return map.computeIfAbsent(key, k -> new ArrayList<>(2));
    }

    /**
     * The context of the requests of HTTP bucket {@code key}: a request sent under a parent span is
     * linked with the rest of its trace (tool spans, wrappers, the requests under other spans of it),
     * a root request within its client's or page's context.
     */
    private static String httpContext(String key) {
        if (key.startsWith(PARENT)) {
            int end = key.indexOf('\0', PARENT.length());
            return TRACE + key.substring(PARENT.length(), end);
        }
        return "h" + key;
    }

    /** Whether no span is held. */
    public boolean isEmpty() {
        return explicit.isEmpty() && tools.isEmpty() && wrappers.isEmpty() && http.isEmpty() && other.isEmpty()
                && grpc.isEmpty();
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
     * the context is linked as it is when every span is held; the copies of a span dropped are counted
     * in one context only.
     */
    public void keep(String context) {
        dropCopies();
        duplicates.keep(context);
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

    /** Drops the later copies of a span from every bucket ({@link DuplicateSpans}). */
    void dropCopies() {
        duplicates.drop(explicit.values());
        duplicates.drop(tools.values());
        duplicates.drop(wrappers.values());
        duplicates.drop(http.values());
        duplicates.drop(other.values());
        duplicates.drop(grpc.spans());
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

    /** Forgets every span. */
    void clear() {
        explicit.clear();
        tools.clear();
        wrappers.clear();
        http.clear();
        other.clear();
        grpc.clear();
        lastHttp = null;
        lastHttpKey = null;
    }

    /**
     * Links the spans held into operations, in the order of their first spans, without their parents
     * (each offers its attempts to any operation: {@link ParentOffers} gives the parents), and forgets
     * the spans. {@code pointers}: locations carry JSON Pointers (a single document). With {@code parts},
     * for a source linked in parts, the linking's notes go there in the reader's order; else to {@code ctx}.
     */
    public List<RetryLinker.Linked> link(ReadContext ctx, boolean pointers, NoteParts parts) throws InputException {
        return new RetryLinker(this).link(ctx, pointers, true, parts);
    }

    /**
     * Links every span held and hands each operation, with its parent among them, to the context's sink
     * in the order of its first span: a whole source, as a batch reader reads it.
     */
    public void emit(ReadContext ctx, boolean pointers) throws InputException {
        new RetryLinker(this).emit(ctx, pointers);
    }
}

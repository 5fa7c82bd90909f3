package dev.retryaudit.input;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Clock;
import dev.retryaudit.model.Effect;
import dev.retryaudit.model.Field;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.ParentRef;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Groups the attempt spans of one OTLP source into operations once the whole source is read, since
 * the spans of one operation may stand anywhere in it. A span with {@code retry_audit.operation_id}
 * joins that operation. A tool span joins the other spans of its {@code gen_ai.tool.call.id} in its
 * trace, else those of its trace, parent span and tool name; their attempts are numbered by start
 * time. An HTTP span follows the resend count: a first send (no {@code http.request.resend_count})
 * starts an operation; a resend continues the latest operation under the same trace and parent span
 * with the same method and URL, or else the one whose last response redirected it; hops after a
 * redirect or challenge are folded ({@link Hop#attempts}). Any other span with explicit attributes
 * joins the spans of its idempotency key, else of its trace, parent span and span name. An explicit
 * {@code retry_audit.attempt_id} always wins.
 */
final class RetryLinker {
    private static final Comparator<ForeignSpan> BY_START = (a, b) -> {
        int byTime = Long.compareUnsigned(a.startNanos, b.startNanos);
        if (byTime != 0) {
            return byTime;
        }
        int byResend = Integer.compare(a.resends(), b.resends());
        return byResend != 0 ? byResend : Long.compare(a.order, b.order);
    };

    private final Map<String, List<ForeignSpan>> explicit = new LinkedHashMap<>();
    private final Map<String, List<ForeignSpan>> tools = new LinkedHashMap<>();
    private final Map<String, List<ForeignSpan>> http = new LinkedHashMap<>();
    private final Map<String, List<ForeignSpan>> other = new LinkedHashMap<>();

    /** One operation's spans, how to number its attempts, and where its first span stands in the source. */
    private record Group(List<ForeignSpan> spans, boolean byResendCount, long firstOrder) {
        Group(List<ForeignSpan> spans, boolean byResendCount) {
            this(spans, byResendCount, spans.stream().mapToLong(s -> s.order).min().orElseThrow());
        }
    }

    void add(ForeignSpan s) {
        if (s.operationId != null) {
            bucket(explicit, s.operationId).add(s);
        } else if (s.kind == ForeignSpan.Kind.TOOL) {
            String key = s.toolCallId != null ? "c" + s.toolCallId
                    : "p" + s.parentSpanId + '\0' + Objects.requireNonNullElse(s.toolName, "");
            bucket(tools, s.traceId + '\0' + key).add(s);
        } else if (s.kind == ForeignSpan.Kind.HTTP) {
            bucket(http, s.traceId + '\0' + s.parentSpanId).add(s);
        } else {
            String key = s.hop.idempotencyKey != null ? "k" + s.hop.idempotencyKey
                    : "s" + s.traceId + '\0' + s.parentSpanId + '\0' + Objects.requireNonNullElse(s.name, "");
            bucket(other, key).add(s);
        }
    }

    private static List<ForeignSpan> bucket(Map<String, List<ForeignSpan>> map, String key) {
        return map.computeIfAbsent(key, k -> new ArrayList<>(2));
    }

    /** Hands every operation to the sink in the order of its first span; with pointers only for a single document. */
    void emit(ReadContext ctx, boolean pointers) throws InputException {
        List<Group> groups = new ArrayList<>();
        for (List<ForeignSpan> spans : explicit.values()) {
            groups.add(new Group(spans, false));
        }
        for (List<ForeignSpan> spans : tools.values()) {
            groups.add(new Group(spans, false));
        }
        for (List<ForeignSpan> bucket : http.values()) {
            for (List<ForeignSpan> chain : chains(bucket)) {
                groups.add(new Group(chain, true));
            }
        }
        for (List<ForeignSpan> spans : other.values()) {
            groups.add(new Group(spans, false));
        }
        explicit.clear();
        tools.clear();
        http.clear();
        other.clear();
        groups.sort(Comparator.comparingLong(Group::firstOrder));

        Set<String> parents = new HashSet<>();
        for (Group g : groups) {
            g.spans().sort(BY_START);
            ForeignSpan first = g.spans().get(0);
            if (!first.parentSpanId.isEmpty()) {
                parents.add(first.traceId + "/" + first.parentSpanId);
            }
        }
        // Operations are built first without their parents, dropping spans as they go; a parent needs
        // the attempt numbers of every operation, so parents are filled in as operations are handed on.
        List<Operation> ops = new ArrayList<>(groups.size());
        String[] parentKeys = new String[groups.size()];
        Map<String, ParentRef> attemptsBySpan = new HashMap<>();
        int limit = ctx.limits().attemptsPerOperation();
        for (int i = 0; i < groups.size(); i++) {
            Group g = groups.set(i, null);
            List<ForeignSpan> spans = g.spans();
            List<Hop> hops = new ArrayList<>(spans.size());
            for (ForeignSpan s : spans) {
                s.hop.location = ctx.location(s.line, s.column, pointers ? s.pointer() : null);
                hops.add(s.hop);
            }
            List<Attempt> attempts = Hop.attempts(hops, g.byResendCount());
            if (attempts.size() > limit) {
                Location l = attempts.get(limit).location();
                throw InputException.rejected(l.source(), l.line(), l.column(), Drafts.pathOf(l),
                        "operation has more than " + limit
                                + " attempts, the attempts-per-operation limit (raise it with --limit-attempts)");
            }
            ForeignSpan first = spans.get(0);
            String id = first.operationId != null ? first.operationId
                    : first.traceId + "/" + (first.kind == ForeignSpan.Kind.TOOL && first.toolCallId != null
                            ? first.toolCallId : first.spanId);
            ops.add(operation(id, spans, attempts));
            parentKeys[i] = first.parentSpanId.isEmpty() ? null : first.traceId + "/" + first.parentSpanId;
            for (ForeignSpan s : spans) {
                String spanKey = s.traceId + "/" + s.spanId;
                if (parents.contains(spanKey)) {
                    for (Attempt a : attempts) {
                        if (a.spanId().equals(s.spanId)) {
                            attemptsBySpan.put(spanKey, new ParentRef(id, a.attemptId()));
                        }
                    }
                }
            }
        }
        for (int i = 0; i < ops.size(); i++) {
            Operation op = ops.set(i, null);
            ParentRef parent = parentKeys[i] == null ? null : attemptsBySpan.get(parentKeys[i]);
            ctx.sink().accept(parent == null || parent.operation().equals(op.id()) ? op : withParent(op, parent));
        }
    }

    private static Operation withParent(Operation op, ParentRef parent) {
        return new Operation(op.id(), op.tool(), op.effect(), op.method(), op.target(), op.idempotencyKey(),
                op.runId(), parent, op.deadlineMs(), op.reportedOutcome(), op.clock(), op.attempts(), op.checks(),
                op.attributes(), op.location(), op.carried());
    }

    /**
     * Splits the HTTP spans under one trace and parent span into operations by resend count: a first
     * send starts one; a resend continues the latest operation of the same request, or else the one
     * whose last hop, one send earlier, was redirected. A resend with neither starts an operation of
     * its own, whose first attempt number shows the missing sends.
     */
    private static List<List<ForeignSpan>> chains(List<ForeignSpan> bucket) {
        bucket.sort(BY_START);
        List<List<ForeignSpan>> chains = new ArrayList<>();
        Map<String, List<ForeignSpan>> latestByRequest = new HashMap<>();
        Map<Integer, List<ForeignSpan>> redirectedAt = new HashMap<>();
        for (ForeignSpan s : bucket) {
            int resends = s.resends();
            String request = s.method + " " + s.url;
            List<ForeignSpan> chain = null;
            if (resends > 0) {
                List<ForeignSpan> same = latestByRequest.get(request);
                if (same != null && last(same).resends() < resends) {
                    chain = same;
                } else {
                    chain = redirectedAt.get(resends - 1);
                }
            }
            if (chain == null) {
                chain = new ArrayList<>(2);
                chains.add(chain);
            } else {
                redirectedAt.remove(last(chain).resends(), chain);
            }
            chain.add(s);
            latestByRequest.put(request, chain);
            if (s.hop.status != null && Http.isRedirect(s.hop.status)) {
                redirectedAt.put(resends, chain);
            }
        }
        return chains;
    }

    private static ForeignSpan last(List<ForeignSpan> chain) {
        return chain.get(chain.size() - 1);
    }

    /** The operation of {@code spans}, but for its parent. */
    private static Operation operation(String id, List<ForeignSpan> spans, List<Attempt> attempts) throws InputException {
        ForeignSpan first = spans.get(0);
        String runId = null;
        Effect effect = null;
        String toolName = null;
        ForeignSpan runFrom = null;
        ForeignSpan effectFrom = null;
        EnumSet<Field> carried = EnumSet.of(Field.SPAN_ID);
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
        if (toolName == null) {
            toolName = first.method != null ? Http.toolName(first.method, first.host)
                    : first.name != null && !first.name.isEmpty() ? first.name : "span";
        }
        String key = null;
        for (Attempt a : attempts) {
            key = key != null ? key : a.idempotencyKey();
        }
        return new Operation(id, toolName, effect, first.method, first.url, key,
                runId != null ? runId : first.traceId, null, null, null,
                first.server ? Clock.SERVER : Clock.CLIENT, attempts, List.of(), null, first.hop.location,
                CarriedFields.of(carried));
    }

    private static InputException disagreement(ForeignSpan s, String attribute, ForeignSpan earlier) {
        Location l = s.hop.location;
        String path = JsonPointers.toPath(s.pointer()) + ".attributes";
        return InputException.rejected(l.source(), l.line(), l.column(), path,
                attribute + " disagrees with the span at line " + earlier.line + " of the same operation");
    }
}

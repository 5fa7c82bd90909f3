package dev.retryaudit.input.foreign;

import dev.retryaudit.input.reader.ReadContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Links the spans of gRPC calls ({@link GrpcSpan}) into operations for {@link RetryLinker}. A call's
 * attempts are its A72 attempt spans, ordered by {@code previous-rpc-attempts}, a transparent retry
 * folded into the attempt it replaces (gRPC sends one when the earlier attempt never reached the
 * server application: it is no retry); else, when a client span has more than one server span under
 * it, those server spans (the client recorded one span over the retries of its service config, the
 * server one span per attempt), with a note; else the client span itself. Server spans with no client
 * span in the export are the attempts of their call, with a note. Calls of one method in one context
 * (siblings under one parent span, or root calls of one client and thread) are then linked like HTTP
 * requests ({@link RetryLink}): a call that follows a failed one (a transient or unknown-outcome status)
 * is the application sending it again, and its attempts continue the operation.
 */
final class GrpcCalls {
    private static final Comparator<ForeignSpan> BY_ATTEMPT = Comparator
            .comparing((ForeignSpan s) -> s.grpc.previousAttempts, Comparator.nullsLast(Comparator.naturalOrder()))
            .thenComparing(s -> s.grpc.transparent)
            .thenComparing((a, b) -> Long.compareUnsigned(a.startNanos, b.startNanos))
            .thenComparingLong(s -> s.order);

    private final List<ForeignSpan> spans = new ArrayList<>();

    /** One operation's attempt spans in order, and why they were joined (null for one span). */
    record Chain(List<ForeignSpan> spans, String groupedBy) {
    }

    /** One call: the span that stands for it (for its context and start) and its attempt spans in order. */
    private record Call(ForeignSpan call, List<ForeignSpan> attempts, String joinedBy) {
    }

    void add(ForeignSpan s) {
        spans.add(s);
    }

    boolean isEmpty() {
        return spans.isEmpty();
    }

    List<ForeignSpan> spans() {
        return spans;
    }

    void clear() {
        spans.clear();
    }

    /**
     * The operations of the spans added, each as its attempt spans; notes what only server spans or
     * transparent retries showed, and calls whose retries the export cannot show.
     */
    List<Chain> chains(ReadContext ctx) {
        Map<String, List<ForeignSpan>> attemptsByParent = new LinkedHashMap<>();
        Map<String, List<ForeignSpan>> serversByParent = new LinkedHashMap<>();
        Set<String> attemptKeys = new HashSet<>();
        List<ForeignSpan> callSpans = new ArrayList<>();
        for (ForeignSpan s : spans) {
            switch (s.grpc.role) {
                case CALL -> callSpans.add(s);
                case ATTEMPT -> {
                    attemptsByParent.computeIfAbsent(parentKey(s), k -> new ArrayList<>(2)).add(s);
                    attemptKeys.add(key(s));
                }
                case SERVER -> serversByParent.computeIfAbsent(parentKey(s), k -> new ArrayList<>(2)).add(s);
            }
        }
        Set<String> a72Calls = new HashSet<>();
        Set<String> a72Parents = new HashSet<>();
        for (ForeignSpan call : callSpans) {
            if (!call.grpc.conventions) {
                a72Calls.add(key(call) + '\0' + call.grpc.method);
                a72Parents.add(parentKey(call) + '\0' + call.grpc.method);
            }
        }
        long[] transparent = {0, 0, 0};
        long[] blind = {0, 0, 0};
        List<Call> calls = new ArrayList<>();
        for (ForeignSpan call : callSpans) {
            // where an application runs both instrumentations, grpc-java's own spans of the call (around
            // or under the client span) record its attempts, and the client span repeats them
            if (call.grpc.conventions && (a72Parents.contains(key(call) + '\0' + call.grpc.method)
                    || a72Calls.contains(parentKey(call) + '\0' + call.grpc.method))) {
                continue;
            }
            List<ForeignSpan> attempts = attemptsByParent.remove(key(call));
            List<ForeignSpan> servers = serversByParent.remove(key(call));
            if (attempts != null) {
                calls.add(new Call(call, fold(attempts, transparent), "previous-rpc-attempts"));
            } else if (servers != null && servers.size() > 1) {
                calls.add(new Call(call, serverAttempts(call, servers, ctx), "server spans of one call"));
            } else {
                if (servers != null) {
                    // The server span records the metadata the call arrived with: where it records any, a
                    // key it does not record was not sent.
                    ForeignSpan server = servers.get(0);
                    call.requestHeaders |= server.requestHeaders;
                    if (call.hop.idempotencyKey == null) {
                        call.hop.idempotencyKey = server.hop.idempotencyKey;
                    }
                }
                calls.add(new Call(call, List.of(call), null));
                if (call.grpc.conventions && servers == null && blind[0]++ == 0) {
                    blind[1] = call.line;
                    blind[2] = call.column;
                }
            }
        }
        for (List<ForeignSpan> attempts : attemptsByParent.values()) {
            calls.add(new Call(attempts.get(0), fold(attempts, transparent), "previous-rpc-attempts"));
        }
        for (Map.Entry<String, List<ForeignSpan>> e : serversByParent.entrySet()) {
            if (attemptKeys.contains(e.getKey())) {
                // an A72 server span repeats what the client's attempt span records
                continue;
            }
            List<ForeignSpan> servers = e.getValue();
            servers.sort(RetryLinker.BY_START);
            ForeignSpan first = servers.get(0);
            ctx.note(first.line, first.column, servers.size() + (servers.size() == 1 ? " server span" : " server spans")
                    + " of " + first.grpc.method + " (parent span " + (first.parentSpanId.isEmpty() ? "none"
                    : first.parentSpanId) + ") have no client span in the export: the attempts of the call are read from "
                    + "the server's spans alone, on the server's clock");
            calls.add(new Call(first, servers, "server spans of one call"));
        }
        if (blind[0] > 0) {
            ctx.note(blind[1], blind[2], "the export cannot show the retries of " + blind[0] + " gRPC "
                    + (blind[0] == 1 ? "call" : "calls") + ": a client span of the semantic conventions records one "
                    + "span over all attempts of its call, and no server span of the call is in the export, so retries "
                    + "a service config's retryPolicy made under it are not in the export");
        }
        if (transparent[0] > 0) {
            ctx.note(transparent[1], transparent[2], transparent[0] + (transparent[0] == 1 ? " transparent retry"
                    : " transparent retries") + " (transparent-retry true) folded into the attempt before: gRPC makes one "
                    + "when the earlier attempt never reached the server application, so it is not counted as a retry");
        }
        return link(calls);
    }

    /** The attempts of a call with each transparent retry in the place of the attempt it replaces, which starts it. */
    private static List<ForeignSpan> fold(List<ForeignSpan> attempts, long[] transparent) {
        attempts.sort(BY_ATTEMPT);
        List<ForeignSpan> out = new ArrayList<>(attempts.size());
        for (ForeignSpan s : attempts) {
            if (s.grpc.transparent && !out.isEmpty()) {
                ForeignSpan replaced = out.remove(out.size() - 1);
                s.hop.startedAt = replaced.hop.startedAt;
                s.startNanos = replaced.startNanos;
                if (transparent[0]++ == 0) {
                    transparent[1] = s.line;
                    transparent[2] = s.column;
                }
            }
            out.add(s);
        }
        return out;
    }

    /** The server spans of a call as its attempts, the last ending as the client saw it; with a note. */
    private static List<ForeignSpan> serverAttempts(ForeignSpan call, List<ForeignSpan> servers, ReadContext ctx) {
        servers.sort(RetryLinker.BY_START);
        ForeignSpan last = servers.get(servers.size() - 1);
        if (call.hop.grpcStatus != null) {
            last.hop.grpcStatus = call.hop.grpcStatus;
            last.hop.outcome = call.hop.outcome;
            last.hop.errorClass = call.hop.errorClass;
            last.hop.retryPushback = call.hop.retryPushback != null ? call.hop.retryPushback : last.hop.retryPushback;
        }
        ctx.note(call.line, call.column, "client span " + call.spanId + " (" + call.grpc.method + ") records one call, "
                + "but " + servers.size() + " server spans under it show " + servers.size() + " attempts: the client's "
                + "retries (a service config's retryPolicy) are read from the server's spans, on the server's clock");
        return servers;
    }

    /** Joins the calls of one method in one context when a later one is the application sending a failed one again. */
    private static List<Chain> link(List<Call> calls) {
        Map<String, List<Call>> byContext = new LinkedHashMap<>();
        for (Call c : calls) {
            byContext.computeIfAbsent(context(c.call()) + '\0' + c.call().grpc.method, k -> new ArrayList<>(2)).add(c);
        }
        List<Chain> out = new ArrayList<>();
        for (List<Call> group : byContext.values()) {
            group.sort(Comparator.comparing(Call::call, RetryLinker.BY_START));
            List<ForeignSpan> chain = null;
            Set<String> reasons = null;
            for (Call c : group) {
                String reason = chain == null ? null
                        : RetryLink.reason(chain.get(chain.size() - 1), c.attempts().get(0), contextWords(c.call()));
                if (reason == null) {
                    if (chain != null) {
                        out.add(chain(chain, reasons));
                    }
                    chain = new ArrayList<>(c.attempts());
                    reasons = new LinkedHashSet<>();
                } else {
                    chain.addAll(c.attempts());
                    reasons.add(reason);
                }
                if (c.joinedBy() != null && c.attempts().size() > 1) {
                    reasons.add(c.joinedBy());
                }
            }
            out.add(chain(chain, reasons));
        }
        return out;
    }

    private static Chain chain(List<ForeignSpan> spans, Set<String> reasons) {
        return new Chain(spans, reasons.isEmpty() ? null : String.join("; ", reasons));
    }

    private static String key(ForeignSpan s) {
        return s.traceId + "/" + s.spanId;
    }

    private static String parentKey(ForeignSpan s) {
        return s.traceId + "/" + s.parentSpanId;
    }

    /** What a call is linked within: its parent span, else its client and thread (root calls, across traces). */
    private static String context(ForeignSpan s) {
        return !s.parentSpanId.isEmpty() ? "p" + parentKey(s)
                : "c" + Objects.requireNonNullElse(s.client, "") + '\0' + Objects.requireNonNullElse(s.thread, "");
    }

    private static String contextWords(ForeignSpan s) {
        return !s.parentSpanId.isEmpty() ? "parent" : s.thread != null ? "client and thread" : "client";
    }
}

package dev.retryaudit.input.foreign;

import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.json.JsonPointers;
import dev.retryaudit.model.internal.InputException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Attempt spans that stand twice in what is linked, under one trace and span id and with the same content: an
 * exporter that sent a batch again, a file that holds one export twice. The later copy is dropped, and
 * the copies dropped are counted in one note a source. Two spans of one id, seen from one side (client or
 * server), whose content differs are an error: no exporter sends that. Content is everything a span says
 * but its place in the source.
 */
final class DuplicateSpans {
    private final List<ForeignSpan> dropped = new ArrayList<>(0);
    /** The first span met again with other content, and the span it was met as before; null when none. */
    private ForeignSpan[] conflict;

    /**
     * Drops from each list of spans (a linking context's bucket: copies of one span always share one) the
     * later copies of an attempt span that stands in it before; a wrapper (no attempt) is left as it is.
     */
    void drop(Collection<List<ForeignSpan>> buckets) {
        for (List<ForeignSpan> spans : buckets) {
            if (spans.size() > 1) {
                drop(spans);
            }
        }
    }

    /** Drops the later copies of a span from {@code spans}. */
    void drop(List<ForeignSpan> spans) {
        Map<String, ForeignSpan> seen = null;
        for (Iterator<ForeignSpan> it = spans.iterator(); it.hasNext(); ) {
            ForeignSpan s = it.next();
            if (s.kind == ForeignSpan.Kind.WRAPPER || s.spanId == null || s.spanId.isEmpty() || s.traceId == null
                    || s.traceId.isEmpty()) {
                continue;
            }
            seen = seen != null ? seen : new HashMap<>();
            // Span ids are keys enough within one bucket; one of another trace is looked up by both ids.
            ForeignSpan had = seen.putIfAbsent(s.spanId, s);
            if (had != null && !had.traceId.equals(s.traceId)) {
                had = seen.putIfAbsent(s.traceId + "/" + s.spanId, s);
            }
            if (had != null && same(had, s)) {
                it.remove();
                dropped.add(s);
            } else if (had != null && had.server == s.server && had.traceId.equals(s.traceId)
                    && (conflict == null || s.order < conflict[1].order)) {
                conflict = new ForeignSpan[] {had, s};
            }
        }
    }

    /**
     * Keeps only the copies dropped that are counted in linking context {@code context}, for a source linked
     * context by context: each copy is counted in one context, its own, or, for a root request that may be an
     * SDK call span, the context of its trace, which holds it whether or not it is one.
     */
    void keep(String context) {
        dropped.removeIf(s -> !context.equals(countedIn(s)));
    }

    private static String countedIn(ForeignSpan s) {
        return s.kind == ForeignSpan.Kind.HTTP && s.method != null && s.parentSpanId.isEmpty() && !s.traceId.isEmpty()
                ? LinkingContexts.traceContext(s.traceId) : LinkingContexts.of(s);
    }

    /**
     * Notes the copies dropped, at the first; with {@code parts}, counts them there, for a source linked in
     * parts. Rejects the source at the first span that stands again with other content.
     */
    void note(ReadContext ctx, NoteParts parts) throws InputException {
        if (conflict != null) {
            ForeignSpan s = conflict[1];
            String path = s.pointer() == null ? null : JsonPointers.toPath(s.pointer());
            throw InputException.rejected(ctx.source(), s.line, s.column, path, "span " + s.spanId + " of trace "
                    + s.traceId + " stands again with other content than at line " + conflict[0].line + ": one span "
                    + "id names one span, and a copy sent again says the same");
        }
        if (dropped.isEmpty()) {
            return;
        }
        ForeignSpan first = dropped.get(0);
        for (ForeignSpan s : dropped) {
            first = s.order < first.order ? s : first;
        }
        if (parts != null) {
            parts.count(ctx, NoteParts.DUPLICATES, "", first, new long[] {dropped.size()}, first.spanId);
        } else {
            ctx.note(first.line, first.column, text(dropped.size(), first.spanId));
        }
        dropped.clear();
    }

    /** The note on {@code count} copies dropped, the first of span {@code spanId}. */
    static String text(long count, String spanId) {
        return count + (count == 1 ? " attempt span stands" : " attempt spans stand") + " again with the same trace id, span id and "
                + "content, the first span " + spanId + " (an export sent or written twice): each copy is read once";
    }

    /** Whether two spans of one trace and span id say the same, wherever each stands. */
    private static boolean same(ForeignSpan a, ForeignSpan b) {
        return a.kind == b.kind && a.traceId.equals(b.traceId) && a.startNanos == b.startNanos && a.server == b.server && a.modelCall == b.modelCall
                && a.requestHeaders == b.requestHeaders
                && a.responseHeaders == b.responseHeaders && a.abandoned == b.abandoned && a.placeIsId == b.placeIsId
                && Objects.equals(a.parentSpanId, b.parentSpanId) && Objects.equals(a.name, b.name)
                && Objects.equals(a.operationId, b.operationId) && Objects.equals(a.runId, b.runId)
                && a.effect == b.effect && Objects.equals(a.method, b.method) && Objects.equals(a.url, b.url)
                && Objects.equals(a.host, b.host) && Objects.equals(a.toolName, b.toolName)
                && Objects.equals(a.toolCallId, b.toolCallId) && Objects.equals(a.toolArguments, b.toolArguments)
                && Objects.equals(a.client, b.client) && Objects.equals(a.thread, b.thread)
                && Objects.equals(a.resendSource, b.resendSource) && same(a.grpc, b.grpc) && same(a.hop, b.hop);
    }

    private static boolean same(GrpcSpan a, GrpcSpan b) {
        return a == null || b == null ? a == b
                : a.role == b.role && Objects.equals(a.method, b.method)
                        && Objects.equals(a.previousAttempts, b.previousAttempts) && a.transparent == b.transparent
                        && a.conventions == b.conventions;
    }

    private static boolean same(Hop a, Hop b) {
        return Objects.equals(a.attemptId, b.attemptId) && Objects.equals(a.resendCount, b.resendCount)
                && Objects.equals(a.spanId, b.spanId) && Objects.equals(a.idempotencyKey, b.idempotencyKey)
                && Objects.equals(a.clientRequestId, b.clientRequestId) && a.startedAt == b.startedAt
                && a.endedAt == b.endedAt && Double.compare(a.durationMs, b.durationMs) == 0 && a.outcome == b.outcome
                && Objects.equals(a.status, b.status) && Objects.equals(a.retryAfter, b.retryAfter)
                && Objects.equals(a.responseDate, b.responseDate) && a.commitState == b.commitState
                && a.commitStateSource == b.commitStateSource && Objects.equals(a.retryReason, b.retryReason)
                && Objects.equals(a.requestHash, b.requestHash) && Objects.equals(a.grpcStatus, b.grpcStatus)
                && a.errorClass == b.errorClass && Objects.equals(a.retryPushback, b.retryPushback);
    }
}

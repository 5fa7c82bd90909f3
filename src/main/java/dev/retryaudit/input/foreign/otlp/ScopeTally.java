package dev.retryaudit.input.foreign.otlp;

import dev.retryaudit.input.foreign.ForeignSpan;
import dev.retryaudit.input.foreign.Headers;
import dev.retryaudit.input.foreign.SpanAttempts;
import dev.retryaudit.input.foreign.SpanScratch;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.model.internal.InputException;

/**
 * The spans of one {@code ScopeSpans}, in either encoding, as each is read: each span read into the
 * scratch becomes an attempt ({@link SpanAttempts#attempt}) held for its resource, and the scope is
 * noted when its instrumentation records one span over all sends of a request, so that its export
 * cannot show retries.
 */
final class ScopeTally {
    private int requests;
    private int spans;
    /** An SDK that numbers its own attempts (amz-sdk-request) sends each once, with the client's retries off. */
    private boolean counted;

    /** Takes the span read into {@code scratch}: an attempt is held in {@link SpanScratch#resourceSpans}. */
    void span(SpanScratch scratch, ReadContext ctx) throws InputException {
        spans++;
        ForeignSpan span = SpanAttempts.attempt(scratch, ctx);
        if (span != null) {
            scratch.resourceSpans.add(span);
            requests += span.kind == ForeignSpan.Kind.HTTP ? 1 : 0;
            counted |= Headers.SDK_ATTEMPT.equals(span.resendSource);
        }
    }

    /** Notes, at {@code line} and {@code column}, a scope named {@code scope} whose export cannot show retries. */
    void end(ReadContext ctx, long line, long column, String scope) {
        OtlpResource.Blind blind = OtlpResource.oneSpanPerRequest(scope);
        if (blind != null && !counted && (requests > 0 || blind.anySpan() && spans > 0)) {
            ctx.note(line, column, "the export cannot show retries: " + blind.producer() + " (scope " + scope
                    + ") records one span over all sends of a request, so retries it made are not in the export"
                    + (blind.shows() == null ? "" : "; to see them, use " + blind.shows()));
        }
    }
}

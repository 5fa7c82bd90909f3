package dev.retryaudit.rules.budget;

import dev.retryaudit.http.RetryAfterValue;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.ErrorClass;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Outcome;
import dev.retryaudit.model.Severity;
import dev.retryaudit.text.Times;
import dev.retryaudit.text.Wire;
import dev.retryaudit.rules.shared.PairRule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;

/**
 * A retry sent straight after a transient failure hits a server that is already struggling. A
 * failure whose response carried a valid Retry-After is left to the retry-after rules, which judge
 * the wait the server asked for; a retry that started before the previous response is an overlap
 * (a hedge), not a reaction to the failure.
 */
public final class NoBackoff extends PairRule {
    public NoBackoff() {
        super(new RuleInfo("budget/no-backoff", Severity.WARNING,
                "a retry after a transient failure started less than min_backoff_ms after the previous response"));
    }

    @Override
    protected void judge(Operation op, Attempt prev, Attempt next, RuleContext ctx) {
        long min = ctx.policy().minBackoffMs();
        String failure = transientFailure(prev);
        if (failure == null || !prev.hasResponse() || !next.hasStart()) {
            return;
        }
        long responseAt = prev.responseMillis();
        long gap = next.startMillis() - responseAt;
        if (gap < 0 || gap >= min) {
            return;
        }
        ctx.report(op, next, "attempt " + next.attemptId() + " of " + op.id() + " started " + gap
                + " ms after attempt " + prev.attemptId() + " failed with " + failure + ", less than the "
                + min + " ms minimum backoff: an immediate retry hits a server that is already failing",
                Evidence.of().put("prior_attempt", prev.attemptId())
                        .put("prior_failure", failure)
                        .put("prior_response_at", Times.format(responseAt))
                        .put("started_at", Times.format(next.startMillis()))
                        .put("gap_ms", gap)
                        .put("min_backoff_ms", min));
    }

    /**
     * The transient failure of {@code a} in words, or null when it is none or carried a valid Retry-After
     * or any gRPC pushback (those are the retry-after rules').
     */
    private static String transientFailure(Attempt a) {
        if (a.retryAfter() != null && RetryAfterValue.parse(a.retryAfter()) != null
                || a.retryPushback() != null) {
            return null;
        }
        if (a.outcome() == Outcome.TIMEOUT || a.outcome() == Outcome.CONNECTION_ERROR) {
            return Wire.name(a.outcome(), '_');
        }
        if (a.grpcStatus() != null) {
            ErrorClass c = a.grpcStatus().errorClass();
            return c == ErrorClass.RATE_LIMITED || c == ErrorClass.UNAVAILABLE || c == ErrorClass.SERVER
                    ? "gRPC " + a.grpcStatus() : null;
        }
        if (a.status() != null) {
            return a.status() == 429 || a.status() >= 500 ? "status " + a.status() : null;
        }
        if (a.errorClass() == ErrorClass.RATE_LIMITED || a.errorClass() == ErrorClass.UNAVAILABLE
                || a.errorClass() == ErrorClass.SERVER) {
            return "error_class " + Wire.name(a.errorClass(), '_');
        }
        return null;
    }
}

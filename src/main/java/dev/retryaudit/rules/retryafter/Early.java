package dev.retryaudit.rules.retryafter;

import dev.retryaudit.http.ResponseClock;
import dev.retryaudit.http.HttpDate;
import dev.retryaudit.http.RetryAfterValue;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.LazyText;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Policy;
import dev.retryaudit.model.Severity;
import dev.retryaudit.text.Times;
import dev.retryaudit.rules.shared.LazyReports;
import dev.retryaudit.rules.shared.PairRule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;
import dev.retryaudit.rules.grpc.RetryPushback;
import dev.retryaudit.text.Escaping;

/**
 * A client that comes back before the server's Retry-After adds load exactly when the server asked
 * for less. The wait counts from the response time of the attempt that carried the header (on a
 * server-clock trace, its arrival); an HTTP-date is moved by the response's Date header when there
 * is one, and on a client clock without one it gets the policy's clock-skew allowance. A gRPC
 * server's {@code grpc-retry-pushback-ms} is judged the same way, in milliseconds.
 */
public final class Early extends PairRule {
    /**
     * A Date header names whole seconds, so the server's clock at the response may have been up to this
     * much later than it says: a client that waited for the date itself may have waited this much less
     * than (date − Date header).
     */
    static final long DATE_RESOLUTION_MS = 1000;

    public Early() {
        super(new RuleInfo("retry-after/early", Severity.ERROR,
                "attempt n carried Retry-After and attempt n+1 started before it allowed"));
    }

    @Override
    protected void judge(Operation op, Attempt prev, Attempt next, RuleContext ctx) {
        if (prev.retryAfter() != null && next.hasStart()) {
            judgeRetryAfter(op, prev, next, ctx);
        }
        if (prev.retryPushback() != null && next.hasStart()) {
            judgePushback(op, prev, next, ctx);
        }
    }

    /**
     * A gRPC server's {@code grpc-retry-pushback-ms} is a wait in milliseconds from the response, as
     * delay-seconds is in seconds; one that says not to retry is retry-after/do-not-retry's.
     */
    private static void judgePushback(Operation op, Attempt prev, Attempt next, RuleContext ctx) {
        long delay = RetryPushback.delayMs(prev.retryPushback());
        if (delay == RetryPushback.STOP || !prev.hasResponse()) {
            return;
        }
        long responseAt = prev.responseMillis();
        long started = next.startMillis();
        long tolerance = ctx.policy().retryAfterToleranceMs();
        long until = delay > Long.MAX_VALUE - responseAt ? Long.MAX_VALUE : responseAt + delay;
        long allowed = until - tolerance;
        if (started >= allowed) {
            return;
        }
        boolean forever = until == Long.MAX_VALUE;
        String header = "grpc-retry-pushback-ms: " + prev.retryPushback().strip() + " on attempt " + prev.attemptId();
        ctx.report(op, next, "attempt " + next.attemptId() + " of " + op.id() + (forever
                ? " came back although the server asked for a wait too long to count (" + header + ")"
                : " came back " + (until - started) + " ms before the server's pushback allowed (" + header
                        + ")"),
                Evidence.of()
                        .put("retry_pushback_ms", prev.retryPushback())
                        .put("retry_pushback_attempt", prev.attemptId())
                        .put("retry_pushback_until", forever ? null : Times.format(until))
                        .put("tolerance_ms", tolerance)
                        .put("allowed_at", forever ? null : Times.format(allowed))
                        .put("started_at", Times.format(started))
                        .put("early_ms", forever ? null : until - started));
    }

    private static void judgeRetryAfter(Operation op, Attempt prev, Attempt next, RuleContext ctx) {
        Policy policy = ctx.policy();
        ResponseClock clock = ResponseClock.of(prev);
        RetryAfterValue value = clock.retryAfter(prev.retryAfter());
        if (value == null || value.form() == RetryAfterValue.Form.DELAY_SECONDS && !clock.hasResponse()) {
            return;
        }
        boolean corrected = value.form() == RetryAfterValue.Form.HTTP_DATE && clock.hasDate() && clock.hasResponse();
        boolean skewed = value.form() == RetryAfterValue.Form.HTTP_DATE && !corrected && !op.serverClock();
        long until = clock.waitUntil(value);
        long allowed = until - policy.retryAfterToleranceMs() - (skewed ? policy.httpDateSkewMs() : 0)
                - (corrected ? DATE_RESOLUTION_MS : 0);
        long started = next.startMillis();
        if (started >= allowed) {
            return;
        }
        // a delay beyond 64 bits saturated: there is no time to print, only the fact that the client came back
        boolean forever = until == Long.MAX_VALUE;
        Long early = forever ? null : until - started;
        Evidence evidence = Evidence.of()
                .put("retry_after", prev.retryAfter())
                .put("retry_after_form", value.form().id())
                .put("retry_after_attempt", prev.attemptId());
        if (corrected) {
            evidence.put("response_date", prev.responseDate()).put("date_resolution_ms", DATE_RESOLUTION_MS);
        }
        time(evidence, "retry_after_until", forever, until).put("tolerance_ms", policy.retryAfterToleranceMs());
        if (skewed) {
            evidence.put("http_date_skew_ms", policy.httpDateSkewMs());
        }
        time(evidence, "allowed_at", forever, allowed).putTime("started_at", started).put("early_ms", early);
        LazyReports.report(ctx, op, next, new Message(next.attemptId(), op.id(), early, prev.retryAfter(),
                prev.attemptId()), evidence);
    }

    /** Puts the time {@code millis} under {@code key}, or null when the wait was too long to count. */
    private static Evidence time(Evidence evidence, String key, boolean forever, long millis) {
        return forever ? evidence.put(key, null) : evidence.putTime(key, millis);
    }

    /**
     * The message of an early resend, held as its values: a large input may resend early on most of its
     * operations. {@code early} is null when the wait asked for was too long to count.
     */
    private record Message(int attempt, String operation, Long early, String retryAfter, int previous)
            implements LazyText {
        @Override
        public String text() {
            String header = "Retry-After: " + Escaping.shortened(HttpDate.stripOws(retryAfter), 40) + " on attempt "
                    + previous;
            return "attempt " + attempt + " of " + operation + (early == null
                    ? " came back although the server asked for a wait too long to count (" + header + ")"
                    : " came back " + early + " ms before Retry-After allowed (" + header + ")");
        }
    }
}

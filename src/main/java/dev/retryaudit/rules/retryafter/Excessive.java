package dev.retryaudit.rules.retryafter;

import dev.retryaudit.http.ResponseClock;
import dev.retryaudit.http.HttpDate;
import dev.retryaudit.http.RetryAfterValue;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.OperationRule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;
import dev.retryaudit.text.Escaping;
import java.util.List;

/**
 * A Retry-After longer than the policy's {@code max_seconds}: many clients cap, overflow or ignore
 * such values. An HTTP-date's delay counts from the response's Date header, else from the response
 * time; with neither, the delay is unknown and the rule stays silent.
 */
public final class Excessive extends OperationRule {
    public Excessive() {
        super(new RuleInfo("retry-after/excessive", Severity.NOTE,
                "a Retry-After above max_seconds: many clients cap, overflow or ignore such values"));
    }

    @Override
    public void check(Operation op, RuleContext ctx) {
        long max = ctx.policy().retryAfterMaxSeconds();
        List<Attempt> attempts = op.attempts();
        for (int i = 0; i < attempts.size(); i++) {
            Attempt a = attempts.get(i);
            if (a.retryAfter() == null) {
                continue;
            }
            ResponseClock clock = ResponseClock.of(a);
            RetryAfterValue value = clock.retryAfter(a.retryAfter());
            long seconds = value == null ? -1 : delaySeconds(value, clock);
            if (seconds > max) {
                ctx.report(op, a, "attempt " + a.attemptId() + " of " + op.id() + " got Retry-After: "
                        + Escaping.shortened(HttpDate.stripOws(a.retryAfter()), 40) + ", a wait of "
                        + (seconds == Long.MAX_VALUE ? "more seconds than 64 bits hold" : seconds + " s")
                        + ", above the " + max + " s that many clients accept: they cap, overflow or ignore it",
                        Evidence.of().put("retry_after", a.retryAfter())
                                .put("retry_after_form", value.form().id())
                                .put("delay_seconds", seconds == Long.MAX_VALUE ? null : seconds)
                                .put("max_seconds", max));
            }
        }
    }

    /** The wait in whole seconds, or -1 when a date has no time to count from. */
    private static long delaySeconds(RetryAfterValue value, ResponseClock clock) {
        if (value.form() == RetryAfterValue.Form.DELAY_SECONDS) {
            return value.seconds();
        }
        if (!clock.hasDate() && !clock.hasResponse()) {
            return -1;
        }
        long from = clock.hasDate() ? clock.dateMillis() : clock.responseMillis();
        return Math.floorDiv(value.date() - from, 1000);
    }
}

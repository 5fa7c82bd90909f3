package dev.retryaudit.rules.retryafter;

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

/** A Retry-After value outside RFC 9110's grammar: clients disagree on it, and some crash or retry at once. */
public final class Invalid extends OperationRule {
    public Invalid() {
        super(new RuleInfo("retry-after/invalid", Severity.WARNING,
                "a Retry-After value that is neither 1*DIGIT nor one of the three HTTP-date forms"));
    }

    @Override
    public void check(Operation op, RuleContext ctx) {
        List<Attempt> attempts = op.attempts();
        for (int i = 0; i < attempts.size(); i++) {
            Attempt a = attempts.get(i);
            // validity does not depend on the reference time, which only resolves two-digit years
            if (a.retryAfter() != null && RetryAfterValue.parse(a.retryAfter()) == null) {
                String why = RetryAfterValue.whyInvalid(a.retryAfter());
                ctx.report(op, a, "attempt " + a.attemptId() + " of " + op.id() + " got Retry-After \""
                        + Escaping.shortened(a.retryAfter(), 40) + "\", not a valid value (" + why
                        + "); clients disagree on such values, and some crash or retry at once",
                        Evidence.of().put("retry_after", a.retryAfter()).put("problem", why));
            }
        }
    }
}

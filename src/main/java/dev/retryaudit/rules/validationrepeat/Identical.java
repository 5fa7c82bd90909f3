package dev.retryaudit.rules.validationrepeat;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.shared.NonRetryableFailure;
import dev.retryaudit.rules.shared.PairRule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;
import dev.retryaudit.text.Escaping;

/** A request that failed validation, sent again with the same content, fails the same way. */
public final class Identical extends PairRule {
    public Identical() {
        super(new RuleInfo("validation-repeat/identical", Severity.ERROR,
                "attempt n failed non-retryably and attempt n+1 has the same request_hash"));
    }

    @Override
    protected void judge(Operation op, Attempt prev, Attempt next, RuleContext ctx) {
        if (!NonRetryableFailure.is(prev, ctx.policy()) || prev.requestHash() == null
                || !prev.requestHash().equals(next.requestHash())) {
            return;
        }
        String failure = NonRetryableFailure.describe(prev, ctx.policy());
        ctx.report(op, next, "attempt " + next.attemptId() + " of " + op.id() + " sends the request of attempt "
                + prev.attemptId() + " unchanged (request_hash " + Escaping.shortened(next.requestHash(), 40)
                + ") after it failed with " + failure + ": the same input fails the same way",
                Evidence.of().put("prior_attempt", prev.attemptId())
                        .put("prior_failure", failure)
                        .put("request_hash", next.requestHash()));
    }
}

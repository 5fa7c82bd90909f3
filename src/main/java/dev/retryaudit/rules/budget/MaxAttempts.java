package dev.retryaudit.rules.budget;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.OperationRule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;

/** More attempts than the tool's budget: past a few tries a retry adds load, not success. Reported at the first attempt over. */
public final class MaxAttempts extends OperationRule {
    public MaxAttempts() {
        super(new RuleInfo("budget/max-attempts", Severity.ERROR,
                "an operation has more attempts than max_attempts (default 3, per tool in tools)"));
    }

    @Override
    public void check(Operation op, RuleContext ctx) {
        int max = ctx.policy().maxAttemptsFor(op.tool());
        int attempts = op.attempts().size();
        if (attempts <= max) {
            return;
        }
        Attempt over = op.attempts().get(max);
        ctx.report(op, over, op.id() + " made " + attempts + " attempts, more than the " + max
                + " allowed for tool " + op.tool() + ": attempt " + over.attemptId() + " and later exceed the budget",
                Evidence.of().put("attempts", attempts).put("max_attempts", max));
    }
}

package dev.retryaudit.rules.shared;

import dev.retryaudit.model.Operation;
import dev.retryaudit.rules.OperationRule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;
import java.util.List;

/**
 * A built-in rule that judges each retry of a write by its commit-gate row: the loop over the retries
 * that {@link CommitGate#retries(Operation, RuleContext)} computes once per operation is written here
 * once; reads have none.
 */
public abstract class RetryRule extends OperationRule {
    protected RetryRule(RuleInfo info) {
        super(info);
    }

    @Override
    public final void check(Operation op, RuleContext ctx) {
        List<CommitGate.Retry> retries = CommitGate.retries(op, ctx);
        for (int i = 0; i < retries.size(); i++) {
            judge(op, retries.get(i), ctx);
        }
    }

    /** Reports what is unsafe in {@code retry} of the write {@code op} through {@code ctx}. */
    protected abstract void judge(Operation op, CommitGate.Retry retry, RuleContext ctx);
}

package dev.retryaudit.rules;

import dev.retryaudit.model.Operation;
import java.util.List;

/**
 * A rule that judges each retry of a write by its commit-gate row: the loop over the retries that
 * {@link RuleContext#facts} computed once is written here once; reads have none.
 */
public abstract class RetryRule extends OperationRule {
    protected RetryRule(RuleInfo info) {
        super(info);
    }

    @Override
    public final void check(Operation op, RuleContext ctx) {
        List<CommitGate.Retry> retries = ctx.facts(op).retries();
        for (int i = 0; i < retries.size(); i++) {
            judge(op, retries.get(i), ctx);
        }
    }

    /** Reports what is unsafe in {@code retry} of the write {@code op} through {@code ctx}. */
    protected abstract void judge(Operation op, CommitGate.Retry retry, RuleContext ctx);
}

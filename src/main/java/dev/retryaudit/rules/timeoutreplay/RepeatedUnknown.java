package dev.retryaudit.rules.timeoutreplay;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.shared.CommitGate;
import dev.retryaudit.rules.shared.RetryRule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;

/**
 * A write retried again after a retry whose fate was unknown: each further try adds a chance of a
 * double write, and no reconcile read or deduplication clears it. Where the format cannot carry
 * commit_state, a timeout or connection error counts as unknown.
 */
public final class RepeatedUnknown extends RetryRule {
    public RepeatedUnknown() {
        super(new RuleInfo("timeout-replay/repeated-unknown", Severity.ERROR,
                "a write's attempt n >= 2 ended unknown and attempt n+1 exists"));
    }

    @Override
    protected void judge(Operation op, CommitGate.Retry r, RuleContext ctx) {
        if (r.row() != CommitGate.REPEATED_UNKNOWN) {
            return;
        }
        Attempt prior = r.prior();
        Attempt next = r.next();
        ctx.report(op, next, "attempt " + next.attemptId() + " of " + op.id() + " follows attempt "
                + prior.attemptId() + " " + CommitGate.unclearEnding(prior) + ", itself a retry:"
                + " another try of a write whose earlier tries may have landed risks a double write",
                Timeouts.evidence(prior).put("retries_before", r.position() - 1));
    }
}

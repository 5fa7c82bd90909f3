package dev.retryaudit.rules.effectverification;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Check;
import dev.retryaudit.model.CommitState;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Severity;
import dev.retryaudit.text.Wire;
import dev.retryaudit.rules.shared.CommitGate;
import dev.retryaudit.rules.shared.RetryRule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;

/**
 * An attempt sent after an earlier attempt or a reconcile read said the write had landed. A retry
 * that then committed again after a committed attempt is {@link DuplicateCommit}'s event instead.
 */
public final class RetryAfterCommit extends RetryRule {
    public RetryAfterCommit() {
        super(new RuleInfo("effect-verification/retry-after-commit", Severity.ERROR,
                "an attempt follows a committed attempt, or a check that returned committed"));
    }

    @Override
    protected void judge(Operation op, CommitGate.Retry r, RuleContext ctx) {
        if (r.row() != CommitGate.COMMITTED) {
            return;
        }
        int firstCommitted = CommitGate.firstSeenCommitted(op);
        Attempt next = r.next();
        Attempt committed = firstCommitted >= 0 && firstCommitted < r.position()
                ? op.attempts().get(firstCommitted) : null;
        if (committed != null && next.commitState() == CommitState.COMMITTED) {
            return;
        }
        Evidence evidence = Evidence.of();
        String fact;
        if (committed != null) {
            fact = "attempt " + committed.attemptId() + " had committed";
            evidence.put("committed_attempt", committed.attemptId());
        } else {
            Check check = CommitGate.firstCommittedCheck(op);
            fact = "a reconcile read after attempt " + check.afterAttempt() + " had found the write committed";
            evidence.put("check_after_attempt", check.afterAttempt()).put("check_kind", check.kind());
        }
        evidence.put("commit_state", next.commitState() == null ? null : Wire.name(next.commitState(), '_'));
        ctx.report(op, next, "attempt " + next.attemptId() + " of " + op.id() + " was sent although " + fact
                + ": the side effect had already landed", evidence);
    }
}

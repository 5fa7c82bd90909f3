package dev.retryaudit.rules.timeoutreplay;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.shared.CommitGate;
import dev.retryaudit.rules.OperationRule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;
import java.util.List;

/**
 * A write retried after an attempt of unknown fate with no idempotency key on either attempt: the
 * server cannot deduplicate it and a reconcile read has nothing to look up, so this rule reports
 * the retry even when a check claims not_found.
 */
public final class Keyless extends OperationRule {
    public Keyless() {
        super(new RuleInfo("timeout-replay/keyless", Severity.ERROR,
                "a write retried after unknown/timeout/connection_error with no idempotency key on either attempt"));
    }

    @Override
    public void check(Operation op, RuleContext ctx) {
        List<CommitGate.Retry> retries = CommitGate.retries(op, ctx);
        for (int i = 0; i < retries.size(); i++) {
            CommitGate.Retry r = retries.get(i);
            if (r.row() != CommitGate.KEYLESS) {
                continue;
            }
            Attempt prior = r.prior();
            Attempt next = r.next();
            // Only attempt 1 can be cleared by a reconcile read; say when one claimed to, since it proves nothing here.
            boolean claimed = r.position() == 1 && CommitGate.reconcile(op, prior) != null;
            ctx.report(op, next, "attempt " + next.attemptId() + " of " + op.id() + " retries a write after attempt "
                    + prior.attemptId() + " " + CommitGate.unclearEnding(prior)
                    + ", and neither attempt sent an idempotency key: the retry can be neither deduplicated nor reconciled"
                    + (claimed ? " (a reconcile read returned not_found, but without a key it cannot identify the write)" : ""),
                    Timeouts.evidence(prior).put("reconcile_read_not_found", claimed));
        }
    }
}

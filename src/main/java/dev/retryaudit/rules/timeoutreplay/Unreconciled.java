package dev.retryaudit.rules.timeoutreplay;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.shared.CommitGate;
import dev.retryaudit.rules.OperationRule;
import dev.retryaudit.rules.shared.Requests;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;
import java.util.List;

/**
 * A write whose first attempt may have landed was tried again without first asking whether it did.
 * Silent when a reconcile read after attempt 1 returned not_found, or when the tool dedupes by key
 * and both attempts sent the same key (an agent tool's key argument counts as the key its call sent). A retry without any key is {@link Keyless}'s.
 */
public final class Unreconciled extends OperationRule {
    public Unreconciled() {
        super(new RuleInfo("timeout-replay/unreconciled", Severity.ERROR,
                "a write's attempt 1 ended unknown (or timed out) and attempt 2 ran with no reconcile read returning not_found"));
    }

    @Override
    public void check(Operation op, RuleContext ctx) {
        List<CommitGate.Retry> retries = CommitGate.retries(op, ctx);
        if (retries.isEmpty() || retries.get(0).row() != CommitGate.UNRECONCILED) {
            return;
        }
        Attempt prior = retries.get(0).prior();
        Attempt next = retries.get(0).next();
        String priorKey = Requests.key(op, prior, ctx.policy());
        String nextKey = Requests.key(op, next, ctx.policy());
        String keys = priorKey != null && nextKey != null && !priorKey.equals(nextKey)
                ? "; it also sent a new idempotency key, so the server cannot deduplicate it" : "";
        Evidence evidence = Timeouts.evidence(prior)
                .put("prior_idempotency_key", priorKey)
                .put("idempotency_key", nextKey)
                .put("dedupes_by_key", ctx.policy().dedupesByKey(op.tool()));
        String argument = ctx.policy().keyArgument(op.tool());
        ctx.report(op, next, "attempt " + next.attemptId() + " of " + op.id() + " follows attempt " + prior.attemptId()
                + " " + CommitGate.unclearEnding(prior) + ", with no reconcile read between them" + keys,
                argument == null ? evidence : evidence.put("key_argument", argument));
    }
}

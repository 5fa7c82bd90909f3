package dev.retryaudit.rules.effectverification;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.shared.CommitGate;
import dev.retryaudit.rules.shared.RetryRule;
import dev.retryaudit.rules.shared.Requests;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;

/**
 * A retry of the same request under a new idempotency key defeats the server's deduplication. A
 * retry that the commit-state table already blocks is reported by that row's rule, not again here;
 * a corrected request (a different request_hash) should get a new key.
 */
public final class KeyChanged extends RetryRule {
    public KeyChanged() {
        super(new RuleInfo("effect-verification/key-changed", Severity.ERROR,
                "consecutive attempts carry different idempotency keys while the request is the same"));
    }

    @Override
    protected void judge(Operation op, CommitGate.Retry r, RuleContext ctx) {
        Attempt prior = r.prior();
        Attempt next = r.next();
        String priorKey = Requests.key(op, prior);
        String key = Requests.key(op, next);
        if (priorKey == null || key == null || priorKey.equals(key) || !Requests.maybeSame(prior, next)
                || !r.row().allows()) {
            return;
        }
        String same = prior.requestHash() != null && next.requestHash() != null
                ? "the same request_hash" : "no request_hash to show the request changed";
        ctx.report(op, next, "attempt " + next.attemptId() + " of " + op.id() + " sends idempotency key " + key
                + " where attempt " + prior.attemptId() + " sent " + priorKey + ", with " + same
                + ": a retry under a new key defeats deduplication",
                Evidence.of().put("prior_attempt", prior.attemptId()).put("prior_idempotency_key", priorKey)
                        .put("idempotency_key", key).put("prior_request_hash", prior.requestHash())
                        .put("request_hash", next.requestHash()));
    }
}

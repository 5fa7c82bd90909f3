package dev.retryaudit.rules.effectverification;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.CommitStateSource;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Severity;
import dev.retryaudit.text.Wire;
import dev.retryaudit.rules.OperationRule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;
import java.util.List;

/**
 * A commit_state filled in by the model decided something: whether the next attempt ran, or what
 * the operation finally reported. A model's commit_state is a claim, not a record. Reported at the
 * attempt that carries the claim.
 */
public final class UntrustedState extends OperationRule {
    public UntrustedState() {
        super(new RuleInfo("effect-verification/untrusted-state", Severity.WARNING,
                "a commit_state whose source is model gated a retry or the final outcome"));
    }

    @Override
    public void check(Operation op, RuleContext ctx) {
        if (!ctx.isWrite(op)) {
            return;
        }
        List<Attempt> attempts = op.attempts();
        for (int i = 0; i < attempts.size(); i++) {
            Attempt a = attempts.get(i);
            if (a.commitState() == null || a.commitStateSource() != CommitStateSource.MODEL) {
                continue;
            }
            boolean last = i == attempts.size() - 1;
            String gated;
            if (!last) {
                gated = "attempt " + attempts.get(i + 1).attemptId() + " was sent on that claim";
            } else if (op.reportedOutcome() != null) {
                gated = "the operation reported " + Wire.name(op.reportedOutcome(), '_') + " on that claim";
            } else {
                continue;
            }
            String state = Wire.name(a.commitState(), '_');
            ctx.report(op, a, "attempt " + a.attemptId() + " of " + op.id() + " has commit_state " + state
                    + " set by the model, and " + gated + ": a model-filled commit_state is a claim, not a record",
                    Evidence.of().put("commit_state", state).put("commit_state_source", "model")
                            .put("gated", last ? "reported_outcome" : "retry")
                            .put("next_attempt", last ? null : attempts.get(i + 1).attemptId()));
        }
    }
}

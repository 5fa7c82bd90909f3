package dev.retryaudit.rules.effectverification;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.CheckResult;
import dev.retryaudit.model.CommitState;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Field;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.ReportedOutcome;
import dev.retryaudit.model.Severity;
import dev.retryaudit.text.Wire;
import dev.retryaudit.rules.OperationRule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;

/**
 * A write reported as a success that nothing in the trace confirms: no attempt is committed and no
 * reconcile read returned committed. Silent where the format cannot carry commit_state or the
 * reported outcome. A committed state set by the model counts here; {@link UntrustedState} flags it.
 */
public final class UnverifiedSuccess extends OperationRule {
    public UnverifiedSuccess() {
        super(new RuleInfo("effect-verification/unverified-success", Severity.ERROR,
                "reported_outcome success while no attempt is committed and no check returned committed"));
    }

    @Override
    public void check(Operation op, RuleContext ctx) {
        if (op.reportedOutcome() != ReportedOutcome.SUCCESS || !op.carries(Field.COMMIT_STATE)
                || !ctx.isWrite(op)
                || op.attempts().stream().anyMatch(a -> a.commitState() == CommitState.COMMITTED)
                || op.checks().stream().anyMatch(c -> c.result() == CheckResult.COMMITTED)) {
            return;
        }
        Attempt last = op.attempts().get(op.attempts().size() - 1);
        String attempts = op.attempts().size() == 1 ? "its only attempt is not committed"
                : "none of its " + op.attempts().size() + " attempts is committed";
        ctx.report(op, null, op.id() + " reported success, but " + attempts
                + " and no reconcile read found the write: the success is unverified",
                Evidence.of().put("reported_outcome", "success")
                        .put("commit_states", op.attempts().stream()
                                .map(a -> a.commitState() == null ? null : Wire.name(a.commitState(), '_')).toList())
                        .put("last_attempt", last.attemptId()));
    }
}

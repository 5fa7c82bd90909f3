package dev.retryaudit.rules.effectverification;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Check;
import dev.retryaudit.model.CommitState;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.OperationRule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;
import java.util.List;

/**
 * The side effect of one write landed more than once: two attempts are committed, or a reconcile
 * read counted two or more effects. Reported once per operation, at the second committed attempt
 * (else at the check), with every committed attempt in the evidence; the retries that led there
 * are reported by the rule of their commit-state row.
 */
public final class DuplicateCommit extends OperationRule {
    public DuplicateCommit() {
        super(new RuleInfo("effect-verification/duplicate-commit", Severity.ERROR,
                "two or more attempts of one write are committed, or a check found count >= 2: the side effect landed twice"));
    }

    @Override
    public void check(Operation op, RuleContext ctx) {
        if (!ctx.isWrite(op) || !landedTwice(op)) {
            return;
        }
        List<Attempt> committed = op.attempts().stream().filter(a -> a.commitState() == CommitState.COMMITTED).toList();
        List<Integer> ids = committed.stream().map(Attempt::attemptId).toList();
        if (committed.size() >= 2) {
            Attempt second = committed.get(1);
            ctx.report(op, second, "attempt " + second.attemptId() + " of " + op.id() + " committed after attempt "
                    + committed.get(0).attemptId() + " had already committed: the side effect landed "
                    + committed.size() + " times", Evidence.of().put("committed_attempts", ids));
            return;
        }
        List<Check> checks = op.checks();
        for (int i = 0; i < checks.size(); i++) {
            Check c = checks.get(i);
            if (c.count() != null && c.count() >= 2) {
                ctx.at(c.location()).operation(op.id(), op.tool(), op.runId()).report("a reconcile read of " + op.id()
                        + " after attempt " + c.afterAttempt() + " found " + c.count()
                        + " effects of one write: the side effect landed more than once",
                        Evidence.of().put("check_after_attempt", c.afterAttempt()).put("check_kind", c.kind())
                                .put("count", c.count()).put("committed_attempts", ids));
                return;
            }
        }
    }

    /** The cheap test run on every write: two committed attempts, or a check that counted two effects. */
    private static boolean landedTwice(Operation op) {
        int committed = 0;
        List<Attempt> attempts = op.attempts();
        for (int i = 0; i < attempts.size(); i++) {
            Attempt a = attempts.get(i);
            if (a.commitState() == CommitState.COMMITTED && ++committed == 2) {
                return true;
            }
        }
        List<Check> checks = op.checks();
        for (int j = 0; j < checks.size(); j++) {
            Check c = checks.get(j);
            if (c.count() != null && c.count() >= 2) {
                return true;
            }
        }
        return false;
    }
}

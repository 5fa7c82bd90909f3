package dev.retryaudit.rules.budget;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Severity;
import dev.retryaudit.text.Times;
import dev.retryaudit.rules.OperationRule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;
import java.util.List;

/**
 * An attempt started after the operation's deadline (counted from the first attempt's start): the
 * caller has given up, so the work is wasted or, for a write, lands unseen. Reported once per
 * operation, at the first late attempt.
 */
public final class Deadline extends OperationRule {
    public Deadline() {
        super(new RuleInfo("budget/deadline", Severity.ERROR,
                "an attempt started after the first attempt's start + deadline_ms"));
    }

    @Override
    public void check(Operation op, RuleContext ctx) {
        List<Attempt> attempts = op.attempts();
        if (op.deadlineMs() == null || !attempts.get(0).hasStart()) {
            return;
        }
        long first = attempts.get(0).startMillis();
        long deadline = first + op.deadlineMs();
        Attempt late = null;
        int lateCount = 0;
        for (Attempt a : attempts.subList(1, attempts.size())) {
            if (a.hasStart() && a.startMillis() > deadline) {
                late = late == null ? a : late;
                lateCount++;
            }
        }
        if (late == null) {
            return;
        }
        ctx.report(op, late, "attempt " + late.attemptId() + " of " + op.id() + " started "
                + (late.startMillis() - deadline) + " ms after its deadline of " + op.deadlineMs()
                + " ms from the first attempt: the caller had already given up"
                + (lateCount > 1 ? " (" + lateCount + " attempts started late)" : ""),
                Evidence.of().put("deadline_ms", op.deadlineMs())
                        .put("first_started_at", Times.format(first))
                        .put("deadline_at", Times.format(deadline))
                        .put("started_at", Times.format(late.startMillis()))
                        .put("late_ms", late.startMillis() - deadline)
                        .put("late_attempts", lateCount));
    }
}

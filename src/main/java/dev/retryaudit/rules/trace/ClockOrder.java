package dev.retryaudit.rules.trace;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Severity;
import dev.retryaudit.text.Times;
import dev.retryaudit.rules.shared.PairRule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;

/** A later attempt that started before an earlier one shows clocks that disagree or ids assigned out of order. */
public final class ClockOrder extends PairRule {
    public ClockOrder() {
        super(new RuleInfo("trace/clock-order", Severity.NOTE,
                "attempt n+1 started before attempt n started: sort by attempt_id, not by wall clock"));
    }

    @Override
    protected void judge(Operation op, Attempt prev, Attempt next, RuleContext ctx) {
        if (prev.hasStart() && next.hasStart() && next.startMillis() < prev.startMillis()) {
            ctx.report(op, next, "attempt " + next.attemptId() + " of " + op.id() + " started "
                    + (prev.startMillis() - next.startMillis()) + " ms before attempt " + prev.attemptId()
                    + " started: attempts are ordered by attempt_id, so a clock or the numbering is wrong",
                    Evidence.of().put("previous_attempt", prev.attemptId())
                            .put("previous_started_at", Times.format(prev.startMillis()))
                            .put("started_at", Times.format(next.startMillis()))
                            .put("earlier_by_ms", prev.startMillis() - next.startMillis()));
        }
    }
}

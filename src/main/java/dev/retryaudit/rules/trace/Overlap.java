package dev.retryaudit.rules.trace;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Severity;
import dev.retryaudit.model.Times;
import dev.retryaudit.rules.OperationFacts;
import dev.retryaudit.rules.OperationRule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;
import java.util.List;

/** A write retried before the previous attempt answered had two copies in flight at once. */
public final class Overlap extends OperationRule {
    public Overlap() {
        super(new RuleInfo("trace/overlap", Severity.WARNING,
                "attempt n+1 of a write started before attempt n's response time: two copies of a write were in flight"));
    }

    @Override
    public void check(Operation op, RuleContext ctx) {
        if (!ctx.facts(op).isWrite()) {
            return;
        }
        List<OperationFacts.Pair> pairs = ctx.facts(op).pairs();
        for (int i = 0; i < pairs.size(); i++) {
            OperationFacts.Pair pair = pairs.get(i);
            Attempt prev = pair.prior();
            Attempt next = pair.next();
            long prevEnd = prev.responseTime();
            if (!Times.present(prev.startedAt()) || !Times.present(next.startedAt())
                    || next.startedAt() < prev.startedAt() || next.startedAt() >= prevEnd) {
                continue;
            }
            ctx.report(op, next, "attempt " + next.attemptId() + " of write " + op.id() + " started "
                    + (prevEnd - next.startedAt()) + " ms before attempt " + prev.attemptId()
                    + " got its response: two copies of the write were in flight at once",
                    Evidence.of().put("previous_attempt", prev.attemptId())
                            .put("previous_response_at", Times.format(prevEnd))
                            .put("started_at", Times.format(next.startedAt()))
                            .put("overlap_ms", prevEnd - next.startedAt()));
        }
    }
}

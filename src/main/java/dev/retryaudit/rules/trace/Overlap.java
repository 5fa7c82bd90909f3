package dev.retryaudit.rules.trace;

import dev.retryaudit.model.internal.Millis;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.values.LazyText;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Severity;
import dev.retryaudit.text.Times;
import dev.retryaudit.rules.shared.LazyReports;
import dev.retryaudit.rules.shared.PairRule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;

/** A write retried before the previous attempt answered had two copies in flight at once. */
public final class Overlap extends PairRule {
    public Overlap() {
        super(new RuleInfo("trace/overlap", Severity.WARNING,
                "attempt n+1 of a write started before attempt n's response time: two copies of a write were in flight"));
    }

    @Override
    protected boolean concerns(Operation op, RuleContext ctx) {
        return ctx.isWrite(op);
    }

    @Override
    protected void judge(Operation op, Attempt prev, Attempt next, RuleContext ctx) {
        long prevEnd = Millis.responseAt(prev);
        if (!Times.present(Millis.startedAt(prev)) || !Times.present(Millis.startedAt(next))
                || Millis.startedAt(next) < Millis.startedAt(prev) || Millis.startedAt(next) >= prevEnd) {
            return;
        }
        LazyReports.report(ctx, op, next, new Message(next.attemptId(), op.id(), prevEnd - Millis.startedAt(next), prev.attemptId()),
                Evidence.of().put("previous_attempt", prev.attemptId())
                        .putTime("previous_response_at", prevEnd)
                        .putTime("started_at", Millis.startedAt(next))
                        .put("overlap_ms", prevEnd - Millis.startedAt(next)));
    }

    /** The message of an overlap, held as its values: a large input may overlap on most of its writes. */
    private record Message(int attempt, String operation, long overlapMs, int previous) implements LazyText {
        @Override
        public String text() {
            return "attempt " + attempt + " of write " + operation + " started " + overlapMs + " ms before attempt "
                    + previous + " got its response: two copies of the write were in flight at once";
        }
    }
}

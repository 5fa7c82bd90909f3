package dev.retryaudit.rules.trace;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.LazyText;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Severity;
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
        if (!prev.hasStart() || !next.hasStart()) {
            return;
        }
        long started = next.startMillis();
        long prevEnd = prev.responseMillis();
        if (started < prev.startMillis() || started >= prevEnd) {
            return;
        }
        LazyReports.report(ctx, op, next, new Message(next.attemptId(), op.id(), prevEnd - started, prev.attemptId()),
                Evidence.of().put("previous_attempt", prev.attemptId())
                        .putTime("previous_response_at", prevEnd)
                        .putTime("started_at", started)
                        .put("overlap_ms", prevEnd - started));
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

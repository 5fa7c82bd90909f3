package dev.retryaudit.rules.trace;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.OperationRule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A new attempt is a new span; two attempts of an operation under one span_id cannot be told apart in the trace. */
public final class SpanReuse extends OperationRule {
    public SpanReuse() {
        super(new RuleInfo("trace/span-reuse", Severity.ERROR, "two attempts share a span_id"));
    }

    /** Up to this many attempts, an earlier use of a span_id is looked for without a map. */
    private static final int SCAN = 16;

    @Override
    public void check(Operation op, RuleContext ctx) {
        List<Attempt> attempts = op.attempts();
        if (attempts.size() < 2) {
            return;
        }
        Map<String, Attempt> seen = attempts.size() > SCAN ? new HashMap<>() : null;
        for (int i = 0; i < attempts.size(); i++) {
            Attempt a = attempts.get(i);
            if (a.spanId() == null) {
                continue;
            }
            Attempt first = seen != null ? seen.putIfAbsent(a.spanId(), a) : firstWithSpan(attempts, i, a.spanId());
            if (first != null) {
                ctx.report(op, a, "attempt " + a.attemptId() + " of " + op.id() + " reuses the span_id of attempt "
                        + first.attemptId() + ": each attempt must be its own span",
                        Evidence.of().put("span_id", a.spanId()).put("first_attempt", first.attemptId()));
            }
        }
    }

    /** The first of the attempts before position {@code end} with span_id {@code span}, or null. */
    private static Attempt firstWithSpan(List<Attempt> attempts, int end, String span) {
        for (int i = 0; i < end; i++) {
            if (span.equals(attempts.get(i).spanId())) {
                return attempts.get(i);
            }
        }
        return null;
    }
}

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

    @Override
    public void check(Operation op, RuleContext ctx) {
        if (op.attempts().size() < 2) {
            return;
        }
        Map<String, Attempt> seen = new HashMap<>();
        List<Attempt> attempts = op.attempts();
        for (int i = 0; i < attempts.size(); i++) {
            Attempt a = attempts.get(i);
            if (a.spanId() == null) {
                continue;
            }
            Attempt first = seen.putIfAbsent(a.spanId(), a);
            if (first != null) {
                ctx.report(op, a, "attempt " + a.attemptId() + " of " + op.id() + " reuses the span_id of attempt "
                        + first.attemptId() + ": each attempt must be its own span",
                        Evidence.of().put("span_id", a.spanId()).put("first_attempt", first.attemptId()));
            }
        }
    }
}

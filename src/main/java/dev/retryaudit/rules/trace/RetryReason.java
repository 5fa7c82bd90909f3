package dev.retryaudit.rules.trace;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Field;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.OperationRule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;
import java.util.List;

/** Every retry must say why it was made; a first attempt that claims a retry reason means the numbering is off. */
public final class RetryReason extends OperationRule {
    public RetryReason() {
        super(new RuleInfo("trace/retry-reason", Severity.ERROR,
                "a retry has an empty or missing retry_reason (warning when attempt 1 has a non-empty one)"));
    }

    @Override
    public void check(Operation op, RuleContext ctx) {
        if (!op.carries(Field.RETRY_REASON)) {
            return;
        }
        Attempt first = op.attempts().get(0);
        if (first.hasRetryReason()) {
            ctx.report(Severity.WARNING, op, first, "attempt " + first.attemptId() + " of " + op.id()
                    + " is the first attempt but has a retry_reason: an earlier attempt may be missing from the trace",
                    Evidence.of().put("retry_reason", first.retryReason()));
        }
        List<Attempt> attempts = op.attempts();
        for (int i = 1; i < attempts.size(); i++) {
            Attempt a = attempts.get(i);
            if (!a.hasRetryReason()) {
                ctx.report(op, a, "attempt " + a.attemptId() + " of " + op.id() + " is a retry with "
                        + (a.retryReason() == null ? "no" : "an empty") + " retry_reason: a retry must record why it was made",
                        Evidence.of().put("retry_reason", a.retryReason()));
            }
        }
    }
}

package dev.retryaudit.rules.validationrepeat;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.shared.NonRetryableFailure;
import dev.retryaudit.rules.OperationRule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A caller stuck in a loop of non-retryable failures, whatever it changed between them. Each
 * unbroken streak of at least {@code validation_loop} failures is reported once, at the attempt
 * that reached the threshold.
 */
public final class Loop extends OperationRule {
    public Loop() {
        super(new RuleInfo("validation-repeat/loop", Severity.WARNING,
                "validation_loop or more consecutive non-retryable failures in one operation, whatever the hashes"));
    }

    @Override
    public void check(Operation op, RuleContext ctx) {
        int threshold = ctx.policy().validationLoop();
        List<Attempt> attempts = op.attempts();
        int start = 0;
        while (start < attempts.size()) {
            int end = start;
            while (end < attempts.size() && NonRetryableFailure.is(attempts.get(end), ctx.policy())) {
                end++;
            }
            if (end - start >= threshold) {
                report(op, attempts.subList(start, end), threshold, ctx);
            }
            start = end + 1;
        }
    }

    private static void report(Operation op, List<Attempt> streak, int threshold, RuleContext ctx) {
        Set<String> kinds = new LinkedHashSet<>();
        streak.forEach(a -> kinds.add(NonRetryableFailure.describe(a, ctx.policy())));
        Attempt first = streak.get(0);
        Attempt last = streak.get(streak.size() - 1);
        Attempt at = streak.get(threshold - 1);
        ctx.report(op, at, "attempt " + at.attemptId() + " of " + op.id() + " is failure " + threshold
                + " of a loop of " + streak.size() + " non-retryable failures in a row (attempts " + first.attemptId()
                + " to " + last.attemptId() + ", with " + String.join(", ", kinds)
                + "): the caller keeps sending requests the server refuses",
                Evidence.of().put("first_attempt", first.attemptId())
                        .put("last_attempt", last.attemptId())
                        .put("failures", streak.size())
                        .put("kinds", List.copyOf(kinds))
                        .put("validation_loop", threshold));
    }
}

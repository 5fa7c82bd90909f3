package dev.retryaudit.rules.trace;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.OperationRule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;
import java.util.List;

/** The attempt ids of an operation must be 1..n: a gap, a duplicate or a wrong start means attempts were lost or merged. */
public final class AttemptSequence extends OperationRule {
    public AttemptSequence() {
        super(new RuleInfo("trace/attempt-sequence", Severity.ERROR,
                "the attempt ids of an operation are not 1..n (a gap, a duplicate, a start other than 1)"));
    }

    @Override
    public void check(Operation op, RuleContext ctx) {
        List<Attempt> attempts = op.attempts();
        for (int i = 0; i < attempts.size(); i++) {
            if (attempts.get(i).attemptId() != i + 1) {
                List<Integer> ids = attempts.stream().map(Attempt::attemptId).toList();
                ctx.report(op, null, "the attempt ids of " + op.id() + " are " + ids + ", not 1.." + attempts.size()
                        + ": " + problem(ids), Evidence.of().put("sequence", ids).put("expected_last", attempts.size()));
                return;
            }
        }
    }

    private static String problem(List<Integer> ids) {
        if (ids.get(0) != 1) {
            return "the first attempt is not 1";
        }
        for (int i = 1; i < ids.size(); i++) {
            if (ids.get(i).equals(ids.get(i - 1))) {
                return "attempt " + ids.get(i) + " appears more than once";
            }
        }
        return "attempts are missing from the sequence";
    }
}

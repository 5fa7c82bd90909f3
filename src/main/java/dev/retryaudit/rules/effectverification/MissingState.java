package dev.retryaudit.rules.effectverification;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Field;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Severity;
import dev.retryaudit.text.Wire;
import dev.retryaudit.rules.OperationRule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;
import java.util.List;

/**
 * A write attempt without commit_state, in a format that carries the field. It fires on every such
 * attempt, a lone attempt included: a missing commit fact is a stop, not a pass, so a write whose
 * trace cannot say whether it landed fails the audit even when nothing retried it. When a retry
 * followed, that blind retry is this finding's event (no timeout-replay rule reports it again);
 * formats that cannot carry commit_state are left to the timeout-replay rules.
 */
public final class MissingState extends OperationRule {
    public MissingState() {
        super(new RuleInfo("effect-verification/missing-state", Severity.ERROR,
                "a write attempt has no commit_state: a missing commit fact is a stop, not a pass"));
    }

    @Override
    public void check(Operation op, RuleContext ctx) {
        if (!op.carries(Field.COMMIT_STATE) || !ctx.isWrite(op)) {
            return;
        }
        List<Attempt> attempts = op.attempts();
        for (int i = 0; i < attempts.size(); i++) {
            Attempt a = attempts.get(i);
            if (a.commitState() != null) {
                continue;
            }
            Attempt next = i + 1 < attempts.size() ? attempts.get(i + 1) : null;
            String consequence = next == null ? "nobody can tell whether the write landed"
                    : "attempt " + next.attemptId() + " was sent without knowing whether it landed";
            ctx.report(op, a, "attempt " + a.attemptId() + " of write " + op.id() + " has no commit_state: "
                    + consequence, Evidence.of()
                            .put("outcome", a.outcome() == null ? null : Wire.name(a.outcome(), '_'))
                            .put("status", a.status())
                            .put("next_attempt", next == null ? null : next.attemptId()));
        }
    }
}

package dev.retryaudit.rules.shared;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Operation;
import dev.retryaudit.rules.OperationRule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;
import java.util.List;

/**
 * A built-in rule that judges each attempt against the one before it: the loop over an operation's
 * consecutive pairs of attempts is written here once.
 */
public abstract class PairRule extends OperationRule {
    protected PairRule(RuleInfo info) {
        super(info);
    }

    @Override
    public final void check(Operation op, RuleContext ctx) {
        if (!concerns(op, ctx)) {
            return;
        }
        List<Attempt> attempts = op.attempts();
        for (int i = 1; i < attempts.size(); i++) {
            judge(op, attempts.get(i - 1), attempts.get(i), ctx);
        }
    }

    /** Whether the rule judges the pairs of {@code op} at all; every operation's by default. */
    protected boolean concerns(Operation op, RuleContext ctx) {
        return true;
    }

    /** Reports what is unsafe in {@code next}, sent after {@code prior} in {@code op}, through {@code ctx}. */
    protected abstract void judge(Operation op, Attempt prior, Attempt next, RuleContext ctx);
}

package dev.retryaudit.rules;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Operation;
import java.util.List;

/**
 * A rule that judges each attempt against the one before it: the loop over an operation's consecutive
 * pairs of attempts is written here once, over the pairs {@link RuleContext#facts} computed once.
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
        List<OperationFacts.Pair> pairs = ctx.facts(op).pairs();
        for (int i = 0; i < pairs.size(); i++) {
            OperationFacts.Pair pair = pairs.get(i);
            judge(op, pair.prior(), pair.next(), ctx);
        }
    }

    /** Whether the rule judges the pairs of {@code op} at all; every operation's by default. */
    protected boolean concerns(Operation op, RuleContext ctx) {
        return true;
    }

    /** Reports what is unsafe in {@code next}, sent after {@code prior} in {@code op}, through {@code ctx}. */
    protected abstract void judge(Operation op, Attempt prior, Attempt next, RuleContext ctx);
}

package dev.retryaudit.rules;

import dev.retryaudit.model.Operation;

/**
 * A check over one operation at a time. Implementations are small final classes with no state that
 * pass their {@link RuleInfo} to this constructor and ask the engine's decisions, such as whether an operation
 * writes, through {@link RuleContext#isWrite}.
 */
public abstract non-sealed class OperationRule extends Rule {
    protected OperationRule(RuleInfo info) {
        super(info);
    }

    /** Reports what is unsafe in {@code op} through {@code ctx}. */
    public abstract void check(Operation op, RuleContext ctx);
}

package dev.retryaudit.rules;

import dev.retryaudit.model.Operation;

/**
 * A check over one operation at a time. Implementations are small final classes with no state;
 * a rule that must look across operations implements {@link CrossOperationRule} instead.
 */
public interface Rule {
    RuleInfo info();

    /** Reports what is unsafe in {@code op} through {@code ctx}. */
    void check(Operation op, RuleContext ctx);
}

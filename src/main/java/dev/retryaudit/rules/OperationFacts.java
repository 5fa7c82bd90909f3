package dev.retryaudit.rules;

import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Policy;

/**
 * Facts about one operation that several rules need, computed at most once per operation and handed
 * to every rule through {@link RuleContext#facts}: the operation, and whether the policy counts it as a write.
 */
public final class OperationFacts {
    private final Operation op;
    private final boolean write;

    public OperationFacts(Operation op, Policy policy) {
        this.op = op;
        this.write = policy.isWrite(op);
    }

    public Operation operation() {
        return op;
    }

    /** Whether the policy counts the operation as a write. */
    public boolean isWrite() {
        return write;
    }
}

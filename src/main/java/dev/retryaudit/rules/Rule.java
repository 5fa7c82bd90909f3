package dev.retryaudit.rules;

import java.util.Objects;

/**
 * A check the engine runs, per operation ({@link OperationRule}) or across operations
 * ({@link CrossOperationRule}) by its type. Its metadata is declared once, passed to this constructor.
 */
public abstract sealed class Rule permits OperationRule, CrossOperationRule {
    private final RuleInfo info;

    Rule(RuleInfo info) {
        this.info = Objects.requireNonNull(info, "info");
    }

    /** The rule's metadata: id, default severity, summary. */
    public final RuleInfo info() {
        return info;
    }
}

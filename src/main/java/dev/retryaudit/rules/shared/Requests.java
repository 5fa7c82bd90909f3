package dev.retryaudit.rules.shared;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Policy;

/** What tells two attempts' requests apart: the idempotency key each sent and the fingerprint of its content. */
public final class Requests {
    private Requests() {
    }

    /** The idempotency key an attempt sent: its own, else its operation's; null when it sent none. */
    public static String key(Operation op, Attempt attempt) {
        return attempt.idempotencyKey() != null ? attempt.idempotencyKey() : op.idempotencyKey();
    }

    /**
     * The idempotency key an attempt sent, its tool call's key argument counted: its own key, else the value
     * of its tool's key argument ({@link Policy#keyArgument}) in its tool call's arguments, else its
     * operation's; null when it sent none.
     */
    public static String key(Operation op, Attempt attempt, Policy policy) {
        if (attempt.idempotencyKey() != null) {
            return attempt.idempotencyKey();
        }
        String argument = KeyArgument.value(attempt.toolArguments(), policy.keyArgument(op.tool()));
        return argument != null ? argument : op.idempotencyKey();
    }

    /** Whether two attempts may have sent the same request: equal request_hash, or either hash unknown. */
    public static boolean maybeSame(Attempt a, Attempt b) {
        return a.requestHash() == null || b.requestHash() == null || a.requestHash().equals(b.requestHash());
    }
}

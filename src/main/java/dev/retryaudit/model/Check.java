package dev.retryaudit.model;

import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;

/**
 * A reconcile read made after an attempt, typically a ledger read by idempotency key; {@code at},
 * {@code kind} and {@code count} are null when the input did not say.
 */
public record Check(int afterAttempt, Instant at, String kind, CheckResult result, Long count, Location location)
        implements Serializable {
    public Check {
        if (afterAttempt < 1) {
            throw new IllegalArgumentException("after_attempt must be >= 1");
        }
        Objects.requireNonNull(location, "location");
    }
}

package dev.retryaudit.model;

import java.io.Serializable;
import java.util.Objects;

/** A reconcile read made after an attempt, typically a ledger read by idempotency key. */
public record Check(int afterAttempt, long at, String kind, CheckResult result, Long count, Location location)
        implements Serializable {
    public Check {
        if (afterAttempt < 1) {
            throw new IllegalArgumentException("after_attempt must be >= 1");
        }
        Objects.requireNonNull(location, "location");
    }
}

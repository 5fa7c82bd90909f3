package dev.retryaudit.api;

import dev.retryaudit.model.Check;
import dev.retryaudit.model.CheckResult;
import dev.retryaudit.model.Location;
import java.time.Instant;

/** Builds one {@link Check}: a reconcile read after an attempt. The attempt it follows and its result are required. */
public final class CheckBuilder {
    private final int afterAttempt;
    private final CheckResult result;
    private Instant at;
    private String kind;
    private Long count;
    private Location location;

    CheckBuilder(int afterAttempt, CheckResult result) {
        if (afterAttempt < 1) {
            throw new IllegalArgumentException("after_attempt must be >= 1: " + afterAttempt);
        }
        if (result == null) {
            throw new IllegalArgumentException("a check needs its result");
        }
        this.afterAttempt = afterAttempt;
        this.result = result;
    }

    public CheckBuilder at(Instant value) {
        at = value;
        return this;
    }

    /** What was read, for example {@code ledger_lookup}. */
    public CheckBuilder kind(String value) {
        kind = value;
        return this;
    }

    /** How many matching records the read found. */
    public CheckBuilder count(Long value) {
        count = value;
        return this;
    }

    /** Where the check stands ({@link Location}); the operation's location when unset. */
    public CheckBuilder location(Location value) {
        location = value;
        return this;
    }

    Check build(Location fallback) {
        return new Check(afterAttempt, at, kind, result, count,
                location == null ? fallback : location);
    }
}

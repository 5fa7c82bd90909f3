package dev.retryaudit.model;

import java.io.Serializable;
import java.util.Objects;

/**
 * One try of an operation. Optional fields are null when absent; times are epoch milliseconds or
 * {@link Times#NONE}; {@code durationMs} is NaN when absent.
 */
public record Attempt(
        int attemptId,
        String spanId,
        String idempotencyKey,
        long startedAt,
        long endedAt,
        double durationMs,
        Outcome outcome,
        Integer status,
        ErrorClass errorClass,
        String retryAfter,
        String responseDate,
        CommitState commitState,
        CommitStateSource commitStateSource,
        String retryReason,
        String requestHash,
        RawJson attributes,
        Location location) implements Serializable {

    /** The order of an operation's attempts: by attempt_id, stable for equal ids. */
    public static final java.util.Comparator<Attempt> BY_ID = java.util.Comparator.comparingInt(Attempt::attemptId);

    public Attempt {
        if (attemptId < 1) {
            throw new IllegalArgumentException("attempt_id must be >= 1");
        }
        Objects.requireNonNull(location, "location");
    }

    /** When the response (or the timeout) came: ended_at, else started_at + duration_ms, else started_at. */
    public long responseTime() {
        if (Times.present(endedAt)) {
            return endedAt;
        }
        if (Times.present(startedAt) && !Double.isNaN(durationMs)) {
            return startedAt + Math.round(durationMs);
        }
        return startedAt;
    }

    /** Whether the attempt carries a non-empty retry reason. */
    public boolean hasRetryReason() {
        return retryReason != null && !retryReason.isEmpty();
    }
}

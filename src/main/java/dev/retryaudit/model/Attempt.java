package dev.retryaudit.model;

import dev.retryaudit.text.Times;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * One try of an operation, built through {@code dev.retryaudit.api.AttemptBuilder}. Optional values are
 * null when absent and optional times are empty. Inside, times are held as epoch milliseconds and the
 * {@link Location} as its parts, made when asked for, so that a reader streaming millions of attempts
 * makes neither an object for each time nor a location (nor its JSON Pointer) for each attempt. Equal
 * when all fields and the locations are equal.
 */
public final class Attempt extends Placed {
    private static final long serialVersionUID = 1L;

    /** The order of an operation's attempts: by attempt_id, stable for equal ids. */
    public static final Comparator<Attempt> BY_ID = new ById();

    /*
     * The times as epoch milliseconds, for model.internal.Millis, which reads these four fields once by
     * reflection: objects of classes compiled into this package, so that reaching the times spins no
     * class at start-up and each read is a call the JIT inlines.
     */
    private static final ToLongFunction<Attempt> STARTED_AT = new StartedAt();
    private static final ToLongFunction<Attempt> ENDED_AT = new EndedAt();
    private static final ToLongFunction<Attempt> RESPONSE_AT = new ResponseAt();
    private static final ToDoubleFunction<Attempt> DURATION_MS = new DurationMs();

    private final int attemptId;
    private final String spanId;
    private final String idempotencyKey;
    private final long startedAt;
    private final long endedAt;
    private final double durationMs;
    private final Outcome outcome;
    private final Integer status;
    private final ErrorClass errorClass;
    private final String retryAfter;
    private final String responseDate;
    private final CommitState commitState;
    private final CommitStateSource commitStateSource;
    private final String retryReason;
    private final String requestHash;
    private final String attributesJson;
    /** The gRPC status of an attempt that was a gRPC call, or null. */
    private final GrpcStatus grpcStatus;
    /** The {@code grpc-retry-pushback-ms} the response carried, as recorded, or null. */
    private final String retryPushback;

    Attempt(
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
            String attributesJson,
            Location location) {
        this(attemptId, spanId, idempotencyKey, startedAt, endedAt, durationMs, outcome, status, errorClass,
                retryAfter, responseDate, commitState, commitStateSource, retryReason, requestHash, attributesJson,
                Objects.requireNonNull(location, "location").source(), location.sourceIndex(), location.line(),
                location.column(), location.pointer(), -1, null, -1);
    }

    /**
     * An attempt at {@code line}:{@code column} of source {@code source} (number {@code sourceIndex} of
     * the run), whose JSON Pointer is {@code pointerPrefix + pointerIndex}, followed by
     * {@code nestedPrefix + nestedIndex} unless {@code nestedPrefix} is null ({@code pointerPrefix} alone
     * when {@code pointerIndex} is negative; null for none): what {@link #location()} gives.
     */
    Attempt(
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
            String attributesJson,
            String source, int sourceIndex, long line, long column, String pointerPrefix, int pointerIndex,
            String nestedPrefix, int nestedIndex) {
        super(source, sourceIndex, line, column, pointerPrefix, pointerIndex, nestedPrefix, nestedIndex);
        if (attemptId < 1) {
            throw new IllegalArgumentException("attempt_id must be >= 1");
        }
        this.attemptId = attemptId;
        this.spanId = spanId;
        this.idempotencyKey = idempotencyKey;
        this.startedAt = startedAt;
        this.endedAt = endedAt;
        this.durationMs = durationMs;
        this.outcome = outcome;
        this.status = status;
        this.errorClass = errorClass;
        this.retryAfter = retryAfter;
        this.responseDate = responseDate;
        this.commitState = commitState;
        this.commitStateSource = commitStateSource;
        this.retryReason = retryReason;
        this.requestHash = requestHash;
        this.attributesJson = attributesJson;
        this.grpcStatus = null;
        this.retryPushback = null;
    }

    private Attempt(Attempt a, GrpcStatus grpcStatus, String retryPushback) {
        super(a);
        this.attemptId = a.attemptId;
        this.spanId = a.spanId;
        this.idempotencyKey = a.idempotencyKey;
        this.startedAt = a.startedAt;
        this.endedAt = a.endedAt;
        this.durationMs = a.durationMs;
        this.outcome = a.outcome;
        this.status = a.status;
        this.errorClass = a.errorClass;
        this.retryAfter = a.retryAfter;
        this.responseDate = a.responseDate;
        this.commitState = a.commitState;
        this.commitStateSource = a.commitStateSource;
        this.retryReason = a.retryReason;
        this.requestHash = a.requestHash;
        this.attributesJson = a.attributesJson;
        this.grpcStatus = grpcStatus;
        this.retryPushback = retryPushback;
    }

    /**
     * This attempt as a gRPC call that ended with {@code grpcStatus} (null while unknown) and whose
     * response carried {@code retryPushback} (null for none); itself when both are null.
     */
    Attempt withGrpc(GrpcStatus grpcStatus, String retryPushback) {
        return grpcStatus == null && retryPushback == null ? this : new Attempt(this, grpcStatus, retryPushback);
    }

    public int attemptId() {
        return attemptId;
    }

    public String spanId() {
        return spanId;
    }

    public String idempotencyKey() {
        return idempotencyKey;
    }

    /** When the attempt started, if the input said. */
    public Optional<Instant> startedAt() {
        return instant(startedAt);
    }

    /** When the attempt ended, if the input said. */
    public Optional<Instant> endedAt() {
        return instant(endedAt);
    }

    /** How long the attempt took, if the input said (to the nanosecond of the milliseconds given). */
    public Optional<Duration> duration() {
        return Double.isNaN(durationMs) ? Optional.empty() : Optional.of(Duration.ofNanos(Math.round(durationMs * 1e6)));
    }

    /** The start in epoch milliseconds, or {@link Times#NONE}. */
    long startedAtMillis() {
        return startedAt;
    }

    /** The end in epoch milliseconds, or {@link Times#NONE}. */
    long endedAtMillis() {
        return endedAt;
    }

    /** The duration in milliseconds, or NaN. */
    double durationMillis() {
        return durationMs;
    }

    /** The order of {@link #BY_ID}. */
    private static final class ById implements Comparator<Attempt> {
        @Override
        public int compare(Attempt a, Attempt b) {
            return Integer.compare(a.attemptId, b.attemptId);
        }
    }

    /** {@link #startedAtMillis()} for {@code Millis}. */
    private static final class StartedAt implements ToLongFunction<Attempt> {
        @Override
        public long applyAsLong(Attempt a) {
            return a.startedAt;
        }
    }

    /** {@link #endedAtMillis()} for {@code Millis}. */
    private static final class EndedAt implements ToLongFunction<Attempt> {
        @Override
        public long applyAsLong(Attempt a) {
            return a.endedAt;
        }
    }

    /** {@link #responseMillis()} for {@code Millis}. */
    private static final class ResponseAt implements ToLongFunction<Attempt> {
        @Override
        public long applyAsLong(Attempt a) {
            return a.responseMillis();
        }
    }

    /** {@link #durationMillis()} for {@code Millis}. */
    private static final class DurationMs implements ToDoubleFunction<Attempt> {
        @Override
        public double applyAsDouble(Attempt a) {
            return a.durationMs;
        }
    }

    private static Optional<Instant> instant(long millis) {
        return Times.present(millis) ? Optional.of(Instant.ofEpochMilli(millis)) : Optional.empty();
    }

    public Outcome outcome() {
        return outcome;
    }

    /** The HTTP status of the response, or null. */
    public Integer status() {
        return status;
    }

    public ErrorClass errorClass() {
        return errorClass;
    }

    public String retryAfter() {
        return retryAfter;
    }

    public String responseDate() {
        return responseDate;
    }

    public CommitState commitState() {
        return commitState;
    }

    public CommitStateSource commitStateSource() {
        return commitStateSource;
    }

    public String retryReason() {
        return retryReason;
    }

    public String requestHash() {
        return requestHash;
    }

    /** The free-form {@code attributes} object as compact JSON text, as it was read or given; null when there is none. */
    public String attributesJson() {
        return attributesJson;
    }

    public GrpcStatus grpcStatus() {
        return grpcStatus;
    }

    public String retryPushback() {
        return retryPushback;
    }

    /** When the response (or the timeout) came: the end, else the start plus the duration, else the start; empty with none. */
    public Optional<Instant> responseTime() {
        return instant(responseMillis());
    }

    /** {@link #responseTime()} in epoch milliseconds, or {@link Times#NONE}. */
    long responseMillis() {
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

    @Override
    public boolean equals(Object o) {
        return o == this || o instanceof Attempt a && attemptId == a.attemptId
                && Objects.equals(spanId, a.spanId)
                && Objects.equals(idempotencyKey, a.idempotencyKey)
                && startedAt == a.startedAt
                && endedAt == a.endedAt
                && Double.compare(durationMs, a.durationMs) == 0
                && Objects.equals(outcome, a.outcome)
                && Objects.equals(status, a.status)
                && Objects.equals(errorClass, a.errorClass)
                && Objects.equals(retryAfter, a.retryAfter)
                && Objects.equals(responseDate, a.responseDate)
                && Objects.equals(commitState, a.commitState)
                && Objects.equals(commitStateSource, a.commitStateSource)
                && Objects.equals(retryReason, a.retryReason)
                && Objects.equals(requestHash, a.requestHash)
                && Objects.equals(attributesJson, a.attributesJson)
                && grpcStatus == a.grpcStatus
                && Objects.equals(retryPushback, a.retryPushback)
                && location().equals(a.location());
    }

    @Override
    public int hashCode() {
        return Objects.hash(attemptId, spanId, idempotencyKey, startedAt, endedAt, durationMs, outcome, status,
                errorClass, retryAfter, responseDate, commitState, commitStateSource, retryReason, requestHash,
                attributesJson, grpcStatus, retryPushback, location());
    }

    @Override
    public String toString() {
        return "Attempt[attemptId=" + attemptId + ", spanId=" + spanId + ", idempotencyKey=" + idempotencyKey
                + ", startedAt=" + startedAt + ", endedAt=" + endedAt + ", durationMs=" + durationMs
                + ", outcome=" + outcome + ", status=" + status + ", errorClass=" + errorClass
                + ", retryAfter=" + retryAfter + ", responseDate=" + responseDate + ", commitState=" + commitState
                + ", commitStateSource=" + commitStateSource + ", retryReason=" + retryReason
                + ", requestHash=" + requestHash + ", attributes=" + attributesJson
                + (grpcStatus == null ? "" : ", grpcStatus=" + grpcStatus)
                + (retryPushback == null ? "" : ", retryPushback=" + retryPushback) + ", location=" + location() + "]";
    }
}

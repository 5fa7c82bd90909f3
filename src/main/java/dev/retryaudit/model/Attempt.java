package dev.retryaudit.model;

import dev.retryaudit.text.Times;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;

/**
 * One try of an operation, built by its {@link Builder}. Optional values are null when absent and optional
 * times are empty; a rule reads a time with no object made as a pair, {@link #hasStart()} and
 * {@link #startMillis()}. Inside, times are held as epoch milliseconds and the
 * {@link Location} as its parts, made when asked for, so that a reader streaming millions of attempts
 * makes neither an object for each time nor a location (nor its JSON Pointer) for each attempt. Equal
 * when all fields and the locations are equal.
 */
public final class Attempt extends Placed {
    private static final long serialVersionUID = 1L;

    /** The order of an operation's attempts: by attempt_id, stable for equal ids. */
    public static final Comparator<Attempt> BY_ID = new ById();

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
    /** The arguments of the agent's tool call this attempt belongs to, in canonical form, or null. */
    private final String toolArguments;

    private Attempt(Builder b) {
        super(b);
        if (b.attemptId < 1) {
            throw new IllegalArgumentException("attempt_id must be >= 1");
        }
        this.attemptId = b.attemptId;
        this.spanId = b.spanId;
        this.idempotencyKey = b.idempotencyKey;
        this.startedAt = b.startedAt;
        this.endedAt = b.endedAt;
        this.durationMs = b.durationMs;
        this.outcome = b.outcome != null || b.grpcStatus == null ? b.outcome : b.grpcStatus.outcome();
        this.status = b.status;
        this.errorClass = b.errorClass != null || b.grpcStatus == null ? b.errorClass : b.grpcStatus.errorClass();
        this.retryAfter = b.retryAfter;
        this.responseDate = b.responseDate;
        this.commitState = b.commitState;
        this.commitStateSource = b.commitStateSource;
        this.retryReason = b.retryReason;
        this.requestHash = b.requestHash;
        this.attributesJson = b.attributesJson;
        this.grpcStatus = b.grpcStatus;
        this.retryPushback = b.retryPushback;
        this.toolArguments = b.toolArguments;
    }

    /** A builder with no field set; reuse it for attempt after attempt ({@link Builder#clear()} forgets all). */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this attempt's fields and place, for a copy that differs in some. */
    public Builder toBuilder() {
        Builder b = new Builder();
        placeInto(b);
        b.attemptId = attemptId;
        b.spanId = spanId;
        b.idempotencyKey = idempotencyKey;
        b.startedAt = startedAt;
        b.endedAt = endedAt;
        b.durationMs = durationMs;
        b.outcome = outcome;
        b.status = status;
        b.errorClass = errorClass;
        b.retryAfter = retryAfter;
        b.responseDate = responseDate;
        b.commitState = commitState;
        b.commitStateSource = commitStateSource;
        b.retryReason = retryReason;
        b.requestHash = requestHash;
        b.attributesJson = attributesJson;
        b.grpcStatus = grpcStatus;
        b.retryPushback = retryPushback;
        b.toolArguments = toolArguments;
        return b;
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

    /** Whether the input said when the attempt started. */
    public boolean hasStart() {
        return Times.present(startedAt);
    }

    /** When the attempt started, in epoch milliseconds, with no object made; only when {@link #hasStart()}. */
    public long startMillis() {
        return present(startedAt, "start");
    }

    /** Whether the input said when the attempt ended. */
    public boolean hasEnd() {
        return Times.present(endedAt);
    }

    /** When the attempt ended, in epoch milliseconds; only when {@link #hasEnd()}. */
    public long endMillis() {
        return present(endedAt, "end");
    }

    /** Whether the input said how long the attempt took. */
    public boolean hasDuration() {
        return !Double.isNaN(durationMs);
    }

    /** How long the attempt took, in milliseconds; only when {@link #hasDuration()}. */
    public double durationMillis() {
        if (Double.isNaN(durationMs)) {
            throw new IllegalStateException("attempt " + attemptId + " has no duration");
        }
        return durationMs;
    }

    /** Whether the input said when the response (or the timeout) came: {@link #responseTime()} is not empty. */
    public boolean hasResponse() {
        return Times.present(response());
    }

    /** {@link #responseTime()} in epoch milliseconds; only when {@link #hasResponse()}. */
    public long responseMillis() {
        return present(response(), "response");
    }

    private long present(long millis, String what) {
        if (!Times.present(millis)) {
            throw new IllegalStateException("attempt " + attemptId + " has no " + what + " time");
        }
        return millis;
    }

    /** The order of {@link #BY_ID}. */
    private static final class ById implements Comparator<Attempt> {
        @Override
        public int compare(Attempt a, Attempt b) {
            return Integer.compare(a.attemptId, b.attemptId);
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

    /**
     * The arguments of the agent's tool call this attempt belongs to, in canonical form (JSON parsed, object
     * keys sorted, numbers normalised; a long form as {@code sha256:HEX}), or null: what a tool's key argument
     * is read from.
     */
    public String toolArguments() {
        return toolArguments;
    }

    /** When the response (or the timeout) came: the end, else the start plus the duration, else the start; empty with none. */
    public Optional<Instant> responseTime() {
        return instant(response());
    }

    /** {@link #responseTime()} in epoch milliseconds, or {@link Times#NONE}. */
    private long response() {
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
                && Objects.equals(toolArguments, a.toolArguments)
                && location().equals(a.location());
    }

    @Override
    public int hashCode() {
        return Objects.hash(attemptId, spanId, idempotencyKey, startedAt, endedAt, durationMs, outcome, status,
                errorClass, retryAfter, responseDate, commitState, commitStateSource, retryReason, requestHash,
                attributesJson, grpcStatus, retryPushback, toolArguments, location());
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
                + (retryPushback == null ? "" : ", retryPushback=" + retryPushback)
                + (toolArguments == null ? "" : ", toolArguments=" + toolArguments) + ", location=" + location() + "]";
    }

    /**
     * Builds attempts. The attempt id and the place ({@code at}) are required; every other field stays absent
     * unless set (null clears it again). A reader reuses one builder: it sets the fields, calls
     * {@link #build()}, and sets them again or {@link #clear()}s them for the next attempt. A gRPC status
     * stands for the outcome and error class when those are left unset.
     */
    public static final class Builder extends PlacedBuilder<Builder> {
        private int attemptId;
        private String spanId;
        private String idempotencyKey;
        private long startedAt = Times.NONE;
        private long endedAt = Times.NONE;
        private double durationMs = Double.NaN;
        private Outcome outcome;
        private Integer status;
        private ErrorClass errorClass;
        private String retryAfter;
        private String responseDate;
        private CommitState commitState;
        private CommitStateSource commitStateSource;
        private String retryReason;
        private String requestHash;
        private String attributesJson;
        private GrpcStatus grpcStatus;
        private String retryPushback;
        private String toolArguments;

        private Builder() {
        }

        @Override
        Builder self() {
            return this;
        }

        /** Forgets every field and the place, for the next attempt. */
        public Builder clear() {
            at(null, 0, 0, 0);
            attemptId = 0;
            spanId = null;
            idempotencyKey = null;
            startedAt = Times.NONE;
            endedAt = Times.NONE;
            durationMs = Double.NaN;
            outcome = null;
            status = null;
            errorClass = null;
            retryAfter = null;
            responseDate = null;
            commitState = null;
            commitStateSource = null;
            retryReason = null;
            requestHash = null;
            attributesJson = null;
            grpcStatus = null;
            retryPushback = null;
            toolArguments = null;
            return this;
        }

        /** The attempt's number in its operation, 1 or more. */
        public Builder attemptId(int value) {
            attemptId = value;
            return this;
        }

        public Builder spanId(String value) {
            spanId = value;
            return this;
        }

        /** The key this attempt sent, when it differs from the operation's. */
        public Builder idempotencyKey(String value) {
            idempotencyKey = value;
            return this;
        }

        public Builder startedAt(Instant value) {
            return startMillis(value == null ? Times.NONE : value.toEpochMilli());
        }

        /** The start in epoch milliseconds; {@code Long.MIN_VALUE} leaves it absent. */
        public Builder startMillis(long value) {
            startedAt = value;
            return this;
        }

        public Builder endedAt(Instant value) {
            return endMillis(value == null ? Times.NONE : value.toEpochMilli());
        }

        /** The end in epoch milliseconds; {@code Long.MIN_VALUE} leaves it absent. */
        public Builder endMillis(long value) {
            endedAt = value;
            return this;
        }

        public Builder duration(Duration value) {
            return durationMillis(value == null ? Double.NaN : value.toNanos() / 1e6);
        }

        /** The duration in milliseconds; NaN leaves it absent. */
        public Builder durationMillis(double value) {
            durationMs = value;
            return this;
        }

        public Builder outcome(Outcome value) {
            outcome = value;
            return this;
        }

        /** The HTTP status of the response. */
        public Builder status(Integer value) {
            status = value;
            return this;
        }

        public Builder errorClass(ErrorClass value) {
            errorClass = value;
            return this;
        }

        /** The Retry-After header of the response, as it came (delay-seconds or an HTTP-date). */
        public Builder retryAfter(String value) {
            retryAfter = value;
            return this;
        }

        /** The Date header of the response, as it came. */
        public Builder responseDate(String value) {
            responseDate = value;
            return this;
        }

        public Builder commitState(CommitState value) {
            commitState = value;
            return this;
        }

        public Builder commitStateSource(CommitStateSource value) {
            commitStateSource = value;
            return this;
        }

        public Builder retryReason(String value) {
            retryReason = value;
            return this;
        }

        /** A fingerprint of the request's content: two attempts with equal hashes sent the same request. */
        public Builder requestHash(String value) {
            requestHash = value;
            return this;
        }

        /** Free-form attributes as a JSON object, kept as given ({@link Attempt#attributesJson()}); no rule reads them. */
        public Builder attributesJson(String json) {
            attributesJson = json;
            return this;
        }

        /** The gRPC status a gRPC call ended with; its outcome and error class stand for those left unset. */
        public Builder grpcStatus(GrpcStatus value) {
            grpcStatus = value;
            return this;
        }

        /** The {@code grpc-retry-pushback-ms} response metadata of a gRPC call, as it came. */
        public Builder retryPushback(String value) {
            retryPushback = value;
            return this;
        }

        /** The arguments of the agent's tool call the attempt belongs to, in canonical form ({@link Attempt#toolArguments()}). */
        public Builder toolArguments(String value) {
            toolArguments = value;
            return this;
        }

        /** The attempt; an attempt id under 1 is an {@link IllegalArgumentException}, a missing place an {@link IllegalStateException}. */
        public Attempt build() {
            if (!placed()) {
                throw new IllegalStateException("attempt " + attemptId + " needs a location: at(...)");
            }
            return new Attempt(this);
        }
    }
}

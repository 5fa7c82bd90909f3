package dev.retryaudit.api;

import dev.retryaudit.model.internal.Models;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.CommitState;
import dev.retryaudit.model.CommitStateSource;
import dev.retryaudit.model.ErrorClass;
import dev.retryaudit.model.GrpcStatus;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Outcome;
import dev.retryaudit.text.Times;
import java.time.Duration;
import java.time.Instant;

/**
 * Builds one {@link Attempt}. Only the attempt id is required; every other field is optional and
 * stays absent unless set (null clears it again). Times are instants and durations, not sentinels.
 */
public final class AttemptBuilder {
    private final int attemptId;
    private String spanId;
    private String idempotencyKey;
    private Instant startedAt;
    private Instant endedAt;
    private Duration duration;
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
    private Location location;
    private GrpcStatus grpcStatus;
    private String retryPushback;

    AttemptBuilder(int attemptId) {
        if (attemptId < 1) {
            throw new IllegalArgumentException("attempt_id must be >= 1: " + attemptId);
        }
        this.attemptId = attemptId;
    }

    public AttemptBuilder spanId(String value) {
        spanId = value;
        return this;
    }

    /** The key this attempt sent, when it differs from the operation's. */
    public AttemptBuilder idempotencyKey(String value) {
        idempotencyKey = value;
        return this;
    }

    public AttemptBuilder startedAt(Instant value) {
        startedAt = value;
        return this;
    }

    public AttemptBuilder endedAt(Instant value) {
        endedAt = value;
        return this;
    }

    public AttemptBuilder duration(Duration value) {
        duration = value;
        return this;
    }

    public AttemptBuilder outcome(Outcome value) {
        outcome = value;
        return this;
    }

    /** The HTTP status of the response. */
    public AttemptBuilder status(Integer value) {
        status = value;
        return this;
    }

    public AttemptBuilder errorClass(ErrorClass value) {
        errorClass = value;
        return this;
    }

    /** The Retry-After header of the response, as it came (delay-seconds or an HTTP-date). */
    public AttemptBuilder retryAfter(String value) {
        retryAfter = value;
        return this;
    }

    /** The Date header of the response, as it came. */
    public AttemptBuilder responseDate(String value) {
        responseDate = value;
        return this;
    }

    public AttemptBuilder commitState(CommitState value) {
        commitState = value;
        return this;
    }

    public AttemptBuilder commitStateSource(CommitStateSource value) {
        commitStateSource = value;
        return this;
    }

    public AttemptBuilder retryReason(String value) {
        retryReason = value;
        return this;
    }

    /** A fingerprint of the request's content: two attempts with equal hashes sent the same request. */
    public AttemptBuilder requestHash(String value) {
        requestHash = value;
        return this;
    }

    /** Free-form attributes as a JSON object, kept as given ({@code Attempt.attributesJson()}); no rule reads them. */
    public AttemptBuilder attributesJson(String json) {
        attributesJson = json;
        return this;
    }

    /** The gRPC status a gRPC call ended with; its outcome and error class stand for those left unset. */
    public AttemptBuilder grpcStatus(GrpcStatus value) {
        grpcStatus = value;
        return this;
    }

    /** The {@code grpc-retry-pushback-ms} response metadata of a gRPC call, as it came. */
    public AttemptBuilder retryPushback(String value) {
        retryPushback = value;
        return this;
    }

    /** Where the attempt stands ({@link Location}); the operation's location when unset. */
    public AttemptBuilder at(Location value) {
        location = value;
        return this;
    }

    Attempt build(Location fallback) {
        return Models.withGrpc(Models.attempt(attemptId, spanId, idempotencyKey, millis(startedAt), millis(endedAt),
                duration == null ? Double.NaN : duration.toNanos() / 1e6,
                outcome != null || grpcStatus == null ? outcome : grpcStatus.outcome(), status,
                errorClass != null || grpcStatus == null ? errorClass : grpcStatus.errorClass(), retryAfter,
                responseDate, commitState, commitStateSource, retryReason, requestHash,
                attributesJson, location == null ? fallback : location), grpcStatus, retryPushback);
    }

    static long millis(Instant t) {
        return t == null ? Times.NONE : t.toEpochMilli();
    }
}

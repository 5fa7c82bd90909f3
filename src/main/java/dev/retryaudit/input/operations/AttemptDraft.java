package dev.retryaudit.input.operations;

import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.input.InputException;
import dev.retryaudit.input.json.JsonCursor;
import dev.retryaudit.input.reader.Drafts;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.CommitState;
import dev.retryaudit.model.CommitStateSource;
import dev.retryaudit.model.ErrorClass;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Outcome;
import dev.retryaudit.model.RawJson;
import dev.retryaudit.model.Times;
import java.io.IOException;
import java.util.List;

/** The attempt fields, read one at a time; shared by the operations and spans readers. */
final class AttemptDraft {
    static final List<String> FIELDS = List.of("attempt_id", "span_id", "idempotency_key", "started_at", "ended_at",
            "duration_ms", "outcome", "status", "error_class", "retry_after", "response_date", "commit_state",
            "commit_state_source", "retry_reason", "request_hash", "attributes");

    Integer attemptId;
    String spanId;
    String idempotencyKey;
    long startedAt = Times.NONE;
    long endedAt = Times.NONE;
    long endedAtLine;
    long endedAtColumn;
    double durationMs = Double.NaN;
    Outcome outcome;
    Integer status;
    ErrorClass errorClass;
    String retryAfter;
    String responseDate;
    CommitState commitState;
    CommitStateSource commitStateSource;
    String retryReason;
    String requestHash;
    RawJson attributes;

    /** Forgets every field, for the next object. */
    void clear() {
        attemptId = null;
        spanId = null;
        idempotencyKey = null;
        startedAt = Times.NONE;
        endedAt = Times.NONE;
        endedAtLine = 0;
        endedAtColumn = 0;
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
        attributes = null;
    }

    /** Reads the value of field {@code name} if it is an attempt field; false when it is not one. */
    boolean bind(String name, JsonCursor c) throws IOException, InputException {
        switch (name) {
            case "attempt_id" -> attemptId = c.optInt(1, Integer.MAX_VALUE);
            case "span_id" -> spanId = c.optString();
            case "idempotency_key" -> idempotencyKey = c.optString();
            case "started_at" -> startedAt = c.optTimestamp();
            case "ended_at" -> {
                endedAt = c.optTimestamp();
                endedAtLine = c.line();
                endedAtColumn = c.column();
            }
            case "duration_ms" -> durationMs = c.optNumber(0);
            case "outcome" -> outcome = c.optEnum(Outcome.class);
            case "status" -> status = shared(c.optInt(100, 599));
            case "error_class" -> errorClass = c.optEnum(ErrorClass.class);
            case "retry_after" -> retryAfter = retryAfter(c);
            case "response_date" -> responseDate = c.optSharedString();
            case "commit_state" -> commitState = c.optEnum(CommitState.class);
            case "commit_state_source" -> commitStateSource = c.optEnum(CommitStateSource.class);
            case "retry_reason" -> retryReason = c.optSharedString();
            case "request_hash" -> requestHash = c.optString();
            case "attributes" -> attributes = c.optObjectCopy();
            default -> {
                return false;
            }
        }
        return true;
    }

    /** Builds the attempt found at {@code at}, or says which field is wrong. */
    Attempt build(Location at) throws InputException {
        check(at);
        return new Attempt(attemptId, spanId, idempotencyKey, startedAt, endedAt, durationMs, outcome, status,
                errorClass, retryAfter, responseDate, commitState, commitStateSource, retryReason, requestHash,
                attributes, at);
    }

    /** Says which field is wrong, if one is, in the attempt found at {@code at}. */
    void check(Location at) throws InputException {
        if (attemptId == null) {
            throw Drafts.missing(at, "attempt_id");
        }
        if (endsBeforeStart()) {
            throw InputException.rejected(at.source(), endedAtLine, endedAtColumn, Drafts.pathOf(at) + ".ended_at",
                    "ended_at is before started_at");
        }
    }

    /** Whether {@link #check} finds nothing wrong, for a reader that makes the location only when it does. */
    boolean valid() {
        return attemptId != null && !endsBeforeStart();
    }

    private boolean endsBeforeStart() {
        return Times.present(endedAt) && Times.present(startedAt) && endedAt < startedAt;
    }

    /** One Integer per status code, so that held attempts do not each box their own. */
    private static final Integer[] STATUSES = new Integer[600];

    static {
        for (int i = 100; i < STATUSES.length; i++) {
            STATUSES[i] = i;
        }
    }

    private static Integer shared(Integer status) {
        return status == null ? null : STATUSES[status];
    }

    /** The one Integer of a status code (100 to 599). */
    static Integer status(int code) {
        return STATUSES[code];
    }

    /** Retry-After as given: a string is kept raw for the rules to judge; an integer must be at least 0. */
    private static String retryAfter(JsonCursor c) throws IOException, InputException {
        if (c.token() == JsonToken.VALUE_NUMBER_INT) {
            return Long.toString(c.optLong(0, Long.MAX_VALUE));
        }
        if (c.token() == JsonToken.VALUE_STRING || c.isNull()) {
            return c.optSharedString();
        }
        throw c.error("expected a string or an integer, found " + JsonCursor.describe(c.token()));
    }
}

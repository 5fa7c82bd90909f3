package dev.retryaudit.input.operations;

import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.json.FieldMask;
import dev.retryaudit.json.GrpcStatusValue;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.input.reader.Drafts;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.CommitState;
import dev.retryaudit.model.CommitStateSource;
import dev.retryaudit.model.ErrorClass;
import dev.retryaudit.model.GrpcStatus;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Outcome;
import dev.retryaudit.text.Times;
import java.io.IOException;
import java.util.List;

/** The attempt fields, read one at a time; shared by the operations and spans readers. */
final class AttemptDraft {
    static final List<String> FIELDS = List.of("attempt_id", "span_id", "idempotency_key", "started_at", "ended_at",
            "duration_ms", "outcome", "status", "error_class", "retry_after", "response_date", "commit_state",
            "commit_state_source", "retry_reason", "request_hash", "attributes", "grpc_status",
            "grpc_retry_pushback_ms");
    /** The fields' positions in {@link #FIELDS}, which {@link #MASK} gives for their names. */
    private static final int ATTEMPT_ID = 0;
    private static final int SPAN_ID = 1;
    static final int IDEMPOTENCY_KEY = 2;
    private static final int STARTED_AT = 3;
    private static final int ENDED_AT = 4;
    private static final int DURATION_MS = 5;
    private static final int OUTCOME = 6;
    private static final int STATUS = 7;
    private static final int ERROR_CLASS = 8;
    private static final int RETRY_AFTER = 9;
    private static final int RESPONSE_DATE = 10;
    private static final int COMMIT_STATE = 11;
    private static final int COMMIT_STATE_SOURCE = 12;
    private static final int RETRY_REASON = 13;
    private static final int REQUEST_HASH = 14;
    private static final int ATTRIBUTES = 15;
    private static final int GRPC_STATUS = 16;
    private static final int GRPC_RETRY_PUSHBACK_MS = 17;
    /** Duplicate detection and dispatch for the attempt fields. */
    static final FieldMask MASK = new FieldMask(FIELDS);

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
    String attributes;
    GrpcStatus grpcStatus;
    String retryPushback;
    /** The one builder of this draft's attempts. */
    private final Attempt.Builder builder = Attempt.builder();

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
        grpcStatus = null;
        retryPushback = null;
    }

    /** Reads the value of field {@code name} if it is an attempt field; false when it is not one. */
    boolean bind(String name, JsonCursor c) throws IOException, InputException {
        int field = MASK.position(name);
        return field >= 0 && bind(field, c);
    }

    /** Reads the value of field number {@code field} of {@link #FIELDS}, as {@link #MASK} numbers them; false for none. */
    boolean bind(int field, JsonCursor c) throws IOException, InputException {
        switch (field) {
            case ATTEMPT_ID -> attemptId = c.optInt(1, Integer.MAX_VALUE);
            case SPAN_ID -> spanId = c.optString();
            case IDEMPOTENCY_KEY -> idempotencyKey = c.optString();
            case STARTED_AT -> startedAt = c.optTimestamp();
            case ENDED_AT -> {
                endedAt = c.optTimestamp();
                endedAtLine = c.line();
                endedAtColumn = c.column();
            }
            case DURATION_MS -> durationMs = c.optNumber(0);
            case OUTCOME -> outcome = c.optEnum(Outcome.class);
            case STATUS -> status = shared(c.intOr(100, 599, 0));
            case ERROR_CLASS -> errorClass = c.optEnum(ErrorClass.class);
            case RETRY_AFTER -> retryAfter = retryAfter(c);
            case RESPONSE_DATE -> responseDate = c.optSharedString();
            case COMMIT_STATE -> commitState = c.optEnum(CommitState.class);
            case COMMIT_STATE_SOURCE -> commitStateSource = c.optEnum(CommitStateSource.class);
            case RETRY_REASON -> retryReason = c.optSharedString();
            case REQUEST_HASH -> requestHash = c.optString();
            case ATTRIBUTES -> attributes = c.optObjectCopy();
            case GRPC_STATUS -> grpcStatus = GrpcStatusValue.read(c);
            case GRPC_RETRY_PUSHBACK_MS -> retryPushback = pushback(c);
            default -> {
                return false;
            }
        }
        return true;
    }

    /** Builds the attempt found at {@code at}, or says which field is wrong. */
    Attempt build(Location at) throws InputException {
        check(at);
        return fill().at(at).build();
    }

    /**
     * Builds the attempt that starts at {@code line}:{@code column} of the context's source, whose JSON
     * Pointer is {@code prefix + outer + nested + index}, or says which field is wrong; no {@link Location}
     * (nor pointer) is made unless one is.
     */
    Attempt build(ReadContext ctx, long line, long column, String prefix, int outer, String nested, int index)
            throws InputException {
        if (attemptId == null || endsBeforeStart()) {
            check(ctx.location(line, column, prefix + outer + nested + index));
        }
        return fill().at(ctx.source(), ctx.sourceIndex(), line, column).pointer(prefix, outer).nested(nested, index)
                .build();
    }

    /** The draft's builder, every field of the attempt set from the draft's. */
    private Attempt.Builder fill() {
        return builder.attemptId(attemptId).spanId(spanId).idempotencyKey(idempotencyKey).startMillis(startedAt)
                .endMillis(endedAt).durationMillis(durationMs).outcome(outcome()).status(status).errorClass(errorClass())
                .retryAfter(retryAfter).responseDate(responseDate).commitState(commitState)
                .commitStateSource(commitStateSource).retryReason(retryReason).requestHash(requestHash)
                .attributesJson(attributes).grpcStatus(grpcStatus).retryPushback(retryPushback);
    }

    /** The outcome given, else the one a gRPC status implies. */
    Outcome outcome() {
        return outcome != null || grpcStatus == null ? outcome : grpcStatus.outcome();
    }

    /** The error class given, else the one a gRPC status implies. */
    ErrorClass errorClass() {
        return errorClass != null || grpcStatus == null ? errorClass : grpcStatus.errorClass();
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

    /** The one Integer of a status code, null for 0 (JSON null). */
    private static Integer shared(int status) {
        return status == 0 ? null : STATUSES[status];
    }

    /** The one Integer of a status code (100 to 599). */
    static Integer status(int code) {
        return STATUSES[code];
    }

    /** {@code grpc-retry-pushback-ms} as given: a string kept raw, or an integer (a negative one says "do not retry"). */
    private static String pushback(JsonCursor c) throws IOException, InputException {
        if (c.token() == JsonToken.VALUE_NUMBER_INT) {
            return Long.toString(c.optLong(Long.MIN_VALUE, Long.MAX_VALUE));
        }
        if (c.token() == JsonToken.VALUE_STRING || c.isNull()) {
            return c.optString();
        }
        throw c.error("expected a string or an integer, found " + JsonCursor.describe(c.token()));
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

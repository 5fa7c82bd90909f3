package dev.retryaudit.model;

import java.util.Locale;

/**
 * The status codes of gRPC ({@code grpc/status.h}, {@code io.grpc.Status.Code}) with what each says
 * about an attempt: the outcome the caller saw, the error class it fits, and whether the call may be
 * repeated ({@link #isTransient}, {@link #leavesOutcomeUnknown}, {@link #isRejected}).
 */
public enum GrpcStatus {
    OK(Kind.SUCCESS, Outcome.SUCCESS, null),
    CANCELLED(Kind.UNKNOWN_OUTCOME, Outcome.CANCELLED, null),
    UNKNOWN(Kind.UNKNOWN_OUTCOME, Outcome.ERROR, ErrorClass.SERVER),
    INVALID_ARGUMENT(Kind.REJECTED, Outcome.ERROR, ErrorClass.VALIDATION),
    DEADLINE_EXCEEDED(Kind.UNKNOWN_OUTCOME, Outcome.TIMEOUT, null),
    NOT_FOUND(Kind.REJECTED, Outcome.ERROR, ErrorClass.NOT_FOUND),
    ALREADY_EXISTS(Kind.REJECTED, Outcome.ERROR, ErrorClass.CONFLICT),
    PERMISSION_DENIED(Kind.REJECTED, Outcome.ERROR, ErrorClass.AUTH),
    RESOURCE_EXHAUSTED(Kind.TRANSIENT, Outcome.ERROR, ErrorClass.RATE_LIMITED),
    FAILED_PRECONDITION(Kind.REJECTED, Outcome.ERROR, ErrorClass.CONFLICT),
    ABORTED(Kind.TRANSIENT, Outcome.ERROR, ErrorClass.CONFLICT),
    OUT_OF_RANGE(Kind.REJECTED, Outcome.ERROR, ErrorClass.VALIDATION),
    UNIMPLEMENTED(Kind.REJECTED, Outcome.ERROR, ErrorClass.OTHER),
    INTERNAL(Kind.UNKNOWN_OUTCOME, Outcome.ERROR, ErrorClass.SERVER),
    UNAVAILABLE(Kind.TRANSIENT, Outcome.ERROR, ErrorClass.UNAVAILABLE),
    DATA_LOSS(Kind.UNKNOWN_OUTCOME, Outcome.ERROR, ErrorClass.SERVER),
    UNAUTHENTICATED(Kind.REJECTED, Outcome.ERROR, ErrorClass.AUTH);

    /** What a status says about repeating the call. */
    private enum Kind {
        /** The call succeeded. */
        SUCCESS,
        /** The server did not run the call, or asks the client to come back later: a retry is expected. */
        TRANSIENT,
        /** The call may have run on the server before it failed, or the client stopped waiting: the commit state is unknown. */
        UNKNOWN_OUTCOME,
        /** The server refused the call as sent: repeating it unchanged fails the same way. */
        REJECTED
    }

    private final Kind kind;
    private final Outcome outcome;
    private final ErrorClass errorClass;

    GrpcStatus(Kind kind, Outcome outcome, ErrorClass errorClass) {
        this.kind = kind;
        this.outcome = outcome;
        this.errorClass = errorClass;
    }

    /** Whether the server did not run the call, or asks the client to come back later: a retry is expected. */
    public boolean isTransient() {
        return kind == Kind.TRANSIENT;
    }

    /** Whether the call may have run on the server before it failed, or the client stopped waiting: its commit state is unknown. */
    public boolean leavesOutcomeUnknown() {
        return kind == Kind.UNKNOWN_OUTCOME;
    }

    /** Whether the server refused the call as sent: repeating it unchanged fails the same way. */
    public boolean isRejected() {
        return kind == Kind.REJECTED;
    }

    /** The outcome the caller saw: a timeout for DEADLINE_EXCEEDED, a cancellation for CANCELLED, else error or success. */
    public Outcome outcome() {
        return outcome;
    }

    /** The error class the status fits, or null for OK, CANCELLED and DEADLINE_EXCEEDED (their outcome says it). */
    public ErrorClass errorClass() {
        return errorClass;
    }

    /** The numeric code (0 to 16). */
    public int code() {
        return ordinal();
    }

    /** The status of numeric code {@code code}, or null when it is none of the 17. */
    public static GrpcStatus ofCode(long code) {
        GrpcStatus[] all = values();
        return code >= 0 && code < all.length ? all[(int) code] : null;
    }

    /**
     * The status that {@code text} names: its name in any case ({@code UNAVAILABLE}, {@code unavailable}),
     * its numeric code, or null when it is neither.
     */
    public static GrpcStatus parse(String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        String t = text.strip();
        if (!t.isEmpty() && t.length() <= 2 && t.chars().allMatch(Character::isDigit)) {
            return ofCode(Long.parseLong(t));
        }
        try {
            return valueOf(t.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * The status a span status message begins with, as grpc-java writes it ({@code UNAVAILABLE: io
     * exception}, {@code DEADLINE_EXCEEDED}), or null when it begins with no status name.
     */
    public static GrpcStatus ofMessage(String message) {
        if (message == null) {
            return null;
        }
        int end = 0;
        while (end < message.length() && (Character.isUpperCase(message.charAt(end)) || message.charAt(end) == '_')) {
            end++;
        }
        if (end == 0 || end < message.length() && message.charAt(end) != ':' && message.charAt(end) != ' ') {
            return null;
        }
        try {
            return valueOf(message.substring(0, end));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}

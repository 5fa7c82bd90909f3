package dev.retryaudit.api;

import dev.retryaudit.model.InputError;
import dev.retryaudit.model.InputException;
import dev.retryaudit.model.Limit;
import dev.retryaudit.model.Limits;

/**
 * An input that could not be read or a policy that could not be applied. The message is the tool's
 * one-line diagnostic, {@code FILE:LINE:COL: error: PATH: MESSAGE}, and never echoes input bytes; an
 * input over a limit names the {@link Limit} and says which {@link Limits} setting raises it.
 */
public final class RetryAuditException extends Exception {
    private static final long serialVersionUID = 1L;

    private final InputError error;

    private RetryAuditException(InputError error, InputException cause) {
        super(error.diagnostic(), cause);
        this.error = error;
    }

    /** The input error as a library caller reads it: the limit, when one was exceeded, in the API's terms. */
    static RetryAuditException of(InputException e) {
        return new RetryAuditException(e.error(RetryAuditException::hint), e);
    }

    /** The input error: place, path, what is wrong, the limit and its hint. */
    public InputError error() {
        return error;
    }

    /**
     * The input error as the reader raised it, for a caller that words the limit hints its own way (the command
     * line names its {@code --limit-*} options).
     */
    public InputException input() {
        return (InputException) getCause();
    }

    /** The limit the input exceeded, or null when it was rejected for something else. */
    public Limit limit() {
        return error.limit();
    }

    /** How a library caller raises {@code limit}: the {@link Limits} component given to {@code AuditSettings.Builder.limits}. */
    static String hint(Limit limit) {
        String component = switch (limit) {
            case BYTES, OPERATIONS, DEPTH -> limit.id();
            case ATTEMPTS -> "attemptsPerOperation";
            case STRING -> "stringLength";
            case MEMORY -> null;
        };
        return component == null ? "give the JVM more heap (-Xmx), lower Limits.bytes, or split the input"
                : Limits.raiseWith(limit, "Limits." + component + " (AuditSettings.Builder.limits)");
    }
}

package dev.retryaudit.api;

import dev.retryaudit.input.InputException;

/**
 * An input that could not be read or a policy that could not be applied. The message is the tool's
 * one-line diagnostic, {@code FILE:LINE:COL: error: PATH: MESSAGE}, and never echoes input bytes.
 */
public final class RetryAuditException extends Exception {
    private static final long serialVersionUID = 1L;

    /** The exception of an input error; its message is the error's diagnostic. */
    public RetryAuditException(InputException cause) {
        super(cause.diagnostic(), cause);
    }

    /** The input error itself: what it is about, where, and whether the input could not be read at all. */
    public InputException input() {
        return (InputException) getCause();
    }
}

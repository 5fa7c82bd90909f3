package dev.retryaudit.api.internal;

import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.model.internal.InputException;

/**
 * The reader's error behind a {@link RetryAuditException}, for the surfaces that print it in their own terms:
 * the command line's error reports, MCP's tool errors.
 */
public final class InputErrors {
    private InputErrors() {
    }

    /** The error as the reader raised it. */
    public static InputException of(RetryAuditException e) {
        return (InputException) e.getCause();
    }
}

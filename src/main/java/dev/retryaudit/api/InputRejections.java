package dev.retryaudit.api;

import dev.retryaudit.input.InputException;

/**
 * Input errors found by an engine that reads an input itself, in parts and on several machines (a
 * Spark job), as the library reports them: a {@link RetryAuditException} with the one-line diagnostic
 * and, for a limit, the {@link dev.retryaudit.input.Limits} setting that raises it.
 */
public final class InputRejections {
    private InputRejections() {
    }

    public static RetryAuditException of(InputException e) {
        return RetryAuditException.of(e);
    }
}

package dev.retryaudit.api;

/**
 * An input that could not be read or a policy that could not be applied. The message is the tool's
 * one-line diagnostic, {@code FILE:LINE:COL: error: PATH: MESSAGE}, and never echoes input bytes.
 */
public final class RetryAuditException extends Exception {
    private static final long serialVersionUID = 1L;

    public RetryAuditException(String message, Throwable cause) {
        super(message, cause);
    }
}

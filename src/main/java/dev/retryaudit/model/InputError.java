package dev.retryaudit.model;

import java.io.Serializable;
import java.util.Objects;

/**
 * Why an input could not be audited, as reports print it: unreadable (no line) or rejected at a
 * line, column and JSON path, with what is wrong. It never holds input bytes beyond the source name.
 */
public record InputError(boolean unreadable, String source, long line, long column, String path, String detail)
        implements Serializable {
    public InputError {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(detail, "detail");
    }

    /** The message without the location: the path, then what is wrong. */
    public String message() {
        return path == null ? detail : path + ": " + detail;
    }
}

package dev.retryaudit.model;

import java.io.Serializable;
import java.util.Objects;

/**
 * Something a reader wants the user to know about how it read a source, which is no finding and
 * changes no verdict: an attribute skipped for its unexpected type, a resend it could not link, an
 * export that cannot show retries. {@code line} 0 means the note is about the whole source.
 */
public record InputNote(String source, long line, long column, String message) implements Serializable {
    public InputNote {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(message, "message");
    }

    /**
     * The note on a source that was read and held no attempt, and that no other note explains (a
     * well-formed export of no span, a HAR of no entry): nothing in it was audited, so its report is
     * not the report of a clean input.
     */
    public static InputNote nothingToAudit(String source) {
        return new InputNote(source, 0, 0, "nothing in this input was audited: it holds no attempt "
                + "(no span, request or operation the audit reads)");
    }
}

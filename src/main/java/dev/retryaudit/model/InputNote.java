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

    /** The start of the note on a source that held no attempt ({@link #nothingToAudit}), before what it held instead. */
    public static final String NOTHING_AUDITED = "nothing in this input was audited: it holds ";

    /**
     * The note on a source that was read and held no attempt, and that no other note explains (a
     * well-formed export of no span, a HAR of no entry): nothing in it was audited, so its report is
     * not the report of a clean input.
     */
    public static InputNote nothingToAudit(String source) {
        return nothingToAudit(source, "no attempt (no span, request or operation the audit reads)");
    }

    /**
     * The note on a source that was read and held no attempt, with what it held instead in words
     * ({@code 2 spans, none an attempt: ...}): nothing in it was audited.
     */
    public static InputNote nothingToAudit(String source, String found) {
        return new InputNote(source, 0, 0, NOTHING_AUDITED + found);
    }

    /** What a source held instead of an attempt, if this is the note that says so ({@link #nothingToAudit}); else null. */
    public String nothingAudited() {
        return line == 0 && message.startsWith(NOTHING_AUDITED) ? message.substring(NOTHING_AUDITED.length()) : null;
    }
}

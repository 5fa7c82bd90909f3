package dev.retryaudit.model;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * What was read from one source: its name, the format it was read as, how many operations and
 * attempts it held, and the reader's notes on how it read it (in source order).
 */
public record InputSummary(String source, String format, long operations, long attempts, List<InputNote> notes)
        implements Serializable {
    /** The source name of standard input. */
    public static final String STDIN = "<stdin>";

    public InputSummary {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(format, "format");
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    /** A summary without notes. */
    public InputSummary(String source, String format, long operations, long attempts) {
        this(source, format, operations, attempts, List.of());
    }
}

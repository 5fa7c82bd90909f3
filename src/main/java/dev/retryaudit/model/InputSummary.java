package dev.retryaudit.model;

import java.io.Serializable;
import java.util.Objects;

/** What was read from one source: its name, the format it was read as, and how many operations and attempts it held. */
public record InputSummary(String source, String format, long operations, long attempts) implements Serializable {
    /** The source name of standard input. */
    public static final String STDIN = "<stdin>";

    public InputSummary {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(format, "format");
    }
}

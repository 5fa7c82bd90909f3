package dev.retryaudit.model;

import java.io.Serializable;
import java.util.Comparator;
import java.util.Objects;

/**
 * Where something stands in the input: the source as the user named it, its position among the
 * sources of the run (for ordering), a 1-based line and column, and a JSON Pointer when the source
 * is one document (null for JSON Lines).
 */
public record Location(String source, int sourceIndex, long line, long column, String pointer)
        implements Serializable {
    /** Input order: by source, then line, then column. "First" in a cross-operation rule means first in this order. */
    public static final Comparator<Location> ORDER = Comparator
            .comparingInt(Location::sourceIndex)
            .thenComparingLong(Location::line)
            .thenComparingLong(Location::column);

    public Location {
        Objects.requireNonNull(source, "source");
        if (sourceIndex < 0 || line < 1 || column < 1) {
            throw new IllegalArgumentException("bad location " + sourceIndex + ":" + line + ":" + column);
        }
    }
}

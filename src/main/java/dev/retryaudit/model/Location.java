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
    public static final Comparator<Location> ORDER = new Order();

    public Location {
        Objects.requireNonNull(source, "source");
        if (sourceIndex < 0 || line < 1 || column < 1) {
            throw new IllegalArgumentException("bad location " + sourceIndex + ":" + line + ":" + column);
        }
    }

    /** The order of {@link #ORDER}, a class of its own: a comparator made of lambdas spins classes at start-up. */
    private static final class Order implements Comparator<Location> {
        @Override
        public int compare(Location a, Location b) {
            int c = Integer.compare(a.sourceIndex, b.sourceIndex);
            if (c == 0) {
                c = Long.compare(a.line, b.line);
            }
            return c != 0 ? c : Long.compare(a.column, b.column);
        }
    }
}

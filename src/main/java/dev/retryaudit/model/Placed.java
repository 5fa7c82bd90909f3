package dev.retryaudit.model;

import java.io.Serializable;
import java.util.Objects;

/**
 * Something read from a place of the input that keeps that place as its parts and makes its
 * {@link Location} only when asked: a reader streaming millions of attempts then makes neither a
 * location nor a JSON Pointer for each. The pointer is kept as a prefix and an index, then maybe a
 * nested prefix and index ({@code /operations/} 3 {@code /attempts/} 1), with constant prefixes
 * shared by all; a prefix alone is the whole pointer when its index is negative; none in JSON Lines.
 */
abstract sealed class Placed implements Serializable permits Attempt, Operation {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final int sourceIndex;
    private final long line;
    private final long column;
    /** The JSON Pointer, or its prefix when {@code pointerIndex} is not negative; null in JSON Lines. */
    private final String pointer;
    private final int pointerIndex;
    /** What follows the index, null for nothing: a nested array's name, completed by {@code nestedIndex}. */
    private final String nested;
    private final int nestedIndex;

    Placed(String source, int sourceIndex, long line, long column, String pointerPrefix, int pointerIndex,
            String nestedPrefix, int nestedIndex) {
        Objects.requireNonNull(source, "source");
        if (sourceIndex < 0 || line < 1 || column < 1) {
            throw new IllegalArgumentException("bad location " + sourceIndex + ":" + line + ":" + column);
        }
        this.source = source;
        this.sourceIndex = sourceIndex;
        this.line = line;
        this.column = column;
        this.pointer = pointerPrefix;
        this.pointerIndex = pointerPrefix == null ? -1 : pointerIndex;
        this.nested = this.pointerIndex < 0 ? null : nestedPrefix;
        this.nestedIndex = nestedIndex;
    }

    /** The same place as {@code other}'s. */
    Placed(Placed other) {
        this.source = other.source;
        this.sourceIndex = other.sourceIndex;
        this.line = other.line;
        this.column = other.column;
        this.pointer = other.pointer;
        this.pointerIndex = other.pointerIndex;
        this.nested = other.nested;
        this.nestedIndex = other.nestedIndex;
    }

    /** Where it stands in the input; a new, equal instance on each call. */
    public Location location() {
        String at = pointerIndex < 0 ? pointer
                : nested == null ? pointer + pointerIndex : pointer + pointerIndex + nested + nestedIndex;
        return new Location(source, sourceIndex, line, column, at);
    }

    /** Whether it stands before {@code at} in {@link Location#ORDER}, without making its own location. */
    public boolean isBefore(Location at) {
        if (sourceIndex != at.sourceIndex()) {
            return sourceIndex < at.sourceIndex();
        }
        return line != at.line() ? line < at.line() : column < at.column();
    }
}

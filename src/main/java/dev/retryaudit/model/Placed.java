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

    /** The place {@code b} was given; a missing source or a line, column or source number out of range is refused. */
    Placed(PlacedBuilder<?> b) {
        Objects.requireNonNull(b.source, "location");
        if (b.sourceIndex < 0 || b.line < 1 || b.column < 1) {
            throw new IllegalArgumentException("bad location " + b.sourceIndex + ":" + b.line + ":" + b.column);
        }
        this.source = b.source;
        this.sourceIndex = b.sourceIndex;
        this.line = b.line;
        this.column = b.column;
        this.pointer = b.pointerPrefix;
        this.pointerIndex = b.pointerPrefix == null ? -1 : b.pointerIndex;
        this.nested = this.pointerIndex < 0 ? null : b.nestedPrefix;
        this.nestedIndex = b.nestedIndex;
    }

    /** Sets {@code b}'s place to this one's, parts for parts. */
    void placeInto(PlacedBuilder<?> b) {
        b.source = source;
        b.sourceIndex = sourceIndex;
        b.line = line;
        b.column = column;
        b.pointerPrefix = pointer;
        b.pointerIndex = pointerIndex;
        b.nestedPrefix = nested;
        b.nestedIndex = nestedIndex;
    }

    /** Where it stands in the input; a new, equal instance on each call. */
    public Location location() {
        return new Location(source, sourceIndex, line, column, pointer(pointer, pointerIndex, nested, nestedIndex));
    }

    /** The JSON Pointer of these parts: {@code prefix} alone when {@code index} is negative, else with the index and what is nested. */
    static String pointer(String prefix, int index, String nested, int nestedIndex) {
        return index < 0 ? prefix : nested == null ? prefix + index : prefix + index + nested + nestedIndex;
    }

    /** Whether it stands before {@code at} in {@link Location#ORDER}, without making its own location. */
    public boolean isBefore(Location at) {
        if (sourceIndex != at.sourceIndex()) {
            return sourceIndex < at.sourceIndex();
        }
        return line != at.line() ? line < at.line() : column < at.column();
    }
}

package dev.retryaudit.model;

import java.io.Serializable;
import java.util.Comparator;
import java.util.Objects;

/**
 * Where something stands in the input: the source as the user named it, its position among the
 * sources of the run (for ordering), a 1-based line and column, and a JSON Pointer when the source
 * is one document (null for JSON Lines). For operations built in code or read from something other than
 * a text file, {@link #atLine}, {@link #atRecord} and {@link #atByte} hold every form as the line and column
 * reports print: a line is itself; a record index {@code i} (0-based) is line {@code i + 1}; a byte offset
 * {@code b} (0-based) is line 1, column {@code b + 1}, as in a source of one line. The order of locations,
 * which decides "first" in cross-operation rules, is the order of these numbers.
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

    /** A 1-based line (and column 1) of {@code source}. */
    public static Location atLine(String source, long line) {
        return atLine(source, line, 1);
    }

    /** A 1-based line and column of {@code source}. */
    public static Location atLine(String source, long line, long column) {
        return new Location(source, 0, line, column, null);
    }

    /** The record at 0-based {@code index} of {@code source} (a row of a table, an element of a batch). */
    public static Location atRecord(String source, long index) {
        if (index < 0) {
            throw new IllegalArgumentException("a record index is 0 or more: " + index);
        }
        return new Location(source, 0, index + 1, 1, null);
    }

    /** The 0-based byte {@code offset} of {@code source}. */
    public static Location atByte(String source, long offset) {
        if (offset < 0 || offset == Long.MAX_VALUE) {
            throw new IllegalArgumentException("a byte offset is 0 or more: " + offset);
        }
        return new Location(source, 0, 1, offset + 1, null);
    }

    /** This location as the source at {@code index} of several audited together: sources order before lines. */
    public Location inSource(int index) {
        return new Location(source, index, line, column, pointer);
    }
}

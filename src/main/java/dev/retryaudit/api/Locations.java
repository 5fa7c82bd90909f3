package dev.retryaudit.api;

import dev.retryaudit.model.Location;

/**
 * Where an operation or attempt stands in its source, for operations built in code or read from
 * something other than a text file. Every form is held as the line and column reports print: a
 * line is itself; a record index {@code i} (0-based) is line {@code i + 1}; a byte offset {@code b}
 * (0-based) is line 1, column {@code b + 1}, as in a source of one line. The order of locations,
 * which decides "first" in cross-operation rules, is the order of these numbers.
 */
public final class Locations {
    private Locations() {
    }

    /** A 1-based line (and column 1) of {@code source}. */
    public static Location line(String source, long line) {
        return line(source, line, 1);
    }

    /** A 1-based line and column of {@code source}. */
    public static Location line(String source, long line, long column) {
        return new Location(source, 0, line, column, null);
    }

    /** The record at 0-based {@code index} of {@code source} (a row of a table, an element of a batch). */
    public static Location record(String source, long index) {
        if (index < 0) {
            throw new IllegalArgumentException("a record index is 0 or more: " + index);
        }
        return new Location(source, 0, index + 1, 1, null);
    }

    /** The 0-based byte {@code offset} of {@code source}. */
    public static Location byteOffset(String source, long offset) {
        if (offset < 0 || offset == Long.MAX_VALUE) {
            throw new IllegalArgumentException("a byte offset is 0 or more: " + offset);
        }
        return new Location(source, 0, 1, offset + 1, null);
    }

    /** {@code location} as the source at {@code sourceIndex} of several audited together: sources order before lines. */
    public static Location inSource(Location location, int sourceIndex) {
        return new Location(location.source(), sourceIndex, location.line(), location.column(), location.pointer());
    }
}

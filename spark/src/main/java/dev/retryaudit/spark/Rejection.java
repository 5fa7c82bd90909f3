package dev.retryaudit.spark;

import dev.retryaudit.model.InputException;
import java.io.Serializable;
import java.util.Comparator;

/**
 * An input error with its place in the order the command line meets errors: by source; within a
 * source, what it finds while reading line by line ({@link #READING}) before what it finds at the end
 * of the source ({@link #AT_END}: an operation with no attempt or tool, a duplicate id, the operations
 * limit, in the order of the operations' first lines). The job reports the first, as the command line
 * stops at it.
 */
record Rejection(int source, int phase, long line, long column, int rank, InputException error)
        implements Serializable {
    static final int READING = 0;
    static final int AT_END = 1;

    static final Comparator<Rejection> FIRST = Comparator.comparingInt(Rejection::source)
            .thenComparingInt(Rejection::phase)
            .thenComparingLong(Rejection::line)
            .thenComparingLong(Rejection::column)
            .thenComparingInt(Rejection::rank);

    /** An error met while reading, at its own place. */
    static Rejection reading(int source, InputException e) {
        return new Rejection(source, READING, e.line(), e.column(), 0, e);
    }

    /** An error met at the end of the source, about the operation whose first line is {@code line}:{@code column}. */
    static Rejection atEnd(int source, long line, long column, int rank, InputException e) {
        return new Rejection(source, AT_END, line, column, rank, e);
    }

    static Rejection first(Rejection a, Rejection b) {
        return FIRST.compare(a, b) <= 0 ? a : b;
    }
}

package dev.retryaudit.api;

import dev.retryaudit.model.InputException;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Location;
import java.io.Serializable;
import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;

/**
 * An input error with its place in the order the command line meets errors, for an engine that finds
 * them in parts (a Spark job) and must report the one the command line stops at: by source; within a
 * source, what it meets while reading line by line ({@link #READING}) before what it meets at the end
 * of the source ({@link #AT_END}: an operation with no attempt or tool, a duplicate operation id, the
 * operations limit, in the order of the operations' first lines, then by {@code rank}).
 */
public record OrderedRejection(int source, int phase, long line, long column, int rank, InputException error)
        implements Serializable {
    public static final int READING = 0;
    public static final int AT_END = 1;

    private static final Comparator<OrderedRejection> FIRST = Comparator.comparingInt(OrderedRejection::source)
            .thenComparingInt(OrderedRejection::phase)
            .thenComparingLong(OrderedRejection::line)
            .thenComparingLong(OrderedRejection::column)
            .thenComparingInt(OrderedRejection::rank);

    /** An error met while reading source {@code source}, at its own place. */
    public static OrderedRejection reading(int source, InputException e) {
        return new OrderedRejection(source, READING, e.line(), e.column(), 0, e);
    }

    /** An error met at the end of the source, about the operation whose first line is {@code line}:{@code column}. */
    public static OrderedRejection atEnd(int source, long line, long column, InputException e) {
        return new OrderedRejection(source, AT_END, line, column, 0, e);
    }

    /** A source with nothing to read ({@code e}, as its reader words it), met at its end. */
    public static OrderedRejection empty(int source, InputException e) {
        return atEnd(source, 0, 0, e);
    }

    /** The operation at {@code at} whose id an operation before it in the input set has. */
    public static OrderedRejection duplicateId(Location at) {
        return new OrderedRejection(at.sourceIndex(), AT_END, at.line(), at.column(), 1,
                InputRejections.duplicateId(at));
    }

    /**
     * The operation at {@code at}, one past the operations limit: of its source ({@code inSource}) or of
     * the input set. A reader that hands operations on as it reads ({@code atEnd} false) meets the limit
     * of a source while reading; one that links a source first, and the input set's limit, at the end.
     */
    public static OrderedRejection overOperations(Limits limits, Location at, boolean inSource, boolean atEnd) {
        InputException e = InputRejections.overOperations(limits, at);
        return inSource && !atEnd
                ? new OrderedRejection(at.sourceIndex(), READING, at.line(), at.column(), 0, e)
                : new OrderedRejection(at.sourceIndex(), AT_END, at.line(), at.column(), 2, e);
    }

    /** The byte limit passed at {@code line}:{@code column} (the first byte past it) of source {@code source}. */
    public static OrderedRejection overBytes(int source, String name, long line, long column, Limits limits) {
        return reading(source, InputRejections.overBytes(name, line, column, limits));
    }

    /** The first of {@code a} and {@code b}. */
    public static OrderedRejection first(OrderedRejection a, OrderedRejection b) {
        return FIRST.compare(a, b) <= 0 ? a : b;
    }

    /** The first of {@code found}, the error the command line reports; empty when there is none. */
    public static Optional<OrderedRejection> first(Collection<OrderedRejection> found) {
        return found.stream().min(FIRST);
    }
}

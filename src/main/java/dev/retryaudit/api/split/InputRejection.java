package dev.retryaudit.api.split;

import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.input.InputSet;
import dev.retryaudit.json.ParseFailures;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.internal.InputException;
import java.io.IOException;
import java.io.Serializable;
import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;

/**
 * An input error found by an engine that reads an input in parts on several machines (a Spark job),
 * with its place in the order the command line meets errors, so that of all the errors found the one
 * the command line stops at is reported: by source; within a source, what it meets while reading line
 * by line before what it meets at the end of the source (an operation with no attempt or tool, a
 * duplicate operation id, the operations limit, in the order of the operations' first lines). The
 * errors that only the whole input shows are made here with the library's own words. Immutable and
 * serializable.
 */
public final class InputRejection implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final int READING = 0;
    private static final int AT_END = 1;
    private static final Comparator<InputRejection> FIRST = Comparator.comparingInt((InputRejection r) -> r.source)
            .thenComparingInt(r -> r.phase)
            .thenComparingLong(r -> r.line)
            .thenComparingLong(r -> r.column)
            .thenComparingInt(r -> r.rank);

    private final int source;
    private final int phase;
    private final long line;
    private final long column;
    private final int rank;
    private final RetryAuditException error;

    private InputRejection(int source, int phase, long line, long column, int rank, RetryAuditException error) {
        this.source = source;
        this.phase = phase;
        this.line = line;
        this.column = column;
        this.rank = rank;
        this.error = error;
    }

    /** An error met while reading source {@code source} (by index), at its own place. */
    public static InputRejection reading(int source, RetryAuditException e) {
        return new InputRejection(source, READING, e.line(), e.column(), 0, e);
    }

    /** An error met at the end of source {@code source}, about the operation whose first line is {@code line}:{@code column}. */
    public static InputRejection atEnd(int source, long line, long column, RetryAuditException e) {
        return new InputRejection(source, AT_END, line, column, 0, e);
    }

    /** A source with nothing to read ({@code e}, as {@link LineReader#empty} words it), met at its end. */
    public static InputRejection empty(int source, RetryAuditException e) {
        return atEnd(source, 0, 0, e);
    }

    /** The operation at {@code at} whose id an operation before it in the input set has. */
    public static InputRejection duplicateId(Location at) {
        return new InputRejection(at.sourceIndex(), AT_END, at.line(), at.column(), 1,
                Lent.error(InputSet.duplicateId(at)));
    }

    /**
     * The operation at {@code at}, one past the operations limit: of its source ({@code inSource}) or of
     * the input set. A reader that hands operations on as it reads ({@code atEnd} false) meets the limit
     * of a source while reading; one that links a source first, and the input set's limit, at the end.
     */
    public static InputRejection overOperations(Limits limits, Location at, boolean inSource, boolean atEnd) {
        RetryAuditException e = Lent.error(InputSet.overOperations(limits, at));
        return inSource && !atEnd
                ? new InputRejection(at.sourceIndex(), READING, at.line(), at.column(), 0, e)
                : new InputRejection(at.sourceIndex(), AT_END, at.line(), at.column(), 2, e);
    }

    /** The byte limit passed at {@code line}:{@code column} (the first byte past it) of source {@code source} named {@code name}. */
    public static InputRejection overBytes(int source, String name, long line, long column, Limits limits) {
        InputException over = ParseFailures.bytesExceeded(name, line, column, null, limits.bytes());
        return reading(source, Lent.error(
                InputException.rejected(name, line, column, "$", over.detail()).over(over.limit())));
    }

    /** A source that could not be read: {@code detail} says why ("no such file"). */
    public static RetryAuditException unreadable(String source, String detail) {
        return Lent.error(InputException.unreadable(source, detail));
    }

    /** A source that could not be read for {@code e}. */
    public static RetryAuditException unreadable(String source, IOException e) {
        return Lent.error(ParseFailures.unreadable(source, e));
    }

    /** An input rejected at {@code line}:{@code column} of source {@code source}, {@code detail} saying why (no JSON path). */
    public static RetryAuditException rejected(String source, long line, long column, String detail) {
        return Lent.error(InputException.rejected(source, line, column, null, detail));
    }

    /** The error, with the command line's one-line diagnostic. */
    public RetryAuditException error() {
        return error;
    }

    /** The first of {@code a} and {@code b}. */
    public static InputRejection first(InputRejection a, InputRejection b) {
        return FIRST.compare(a, b) <= 0 ? a : b;
    }

    /** The first of {@code found}, the error the command line reports; empty when there is none. */
    public static Optional<InputRejection> first(Collection<InputRejection> found) {
        return found.stream().min(FIRST);
    }
}

package dev.retryaudit.api;

import dev.retryaudit.input.InputSet;
import dev.retryaudit.input.json.ParseFailures;
import dev.retryaudit.model.InputException;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Location;
import java.io.IOException;

/**
 * Input errors found by an engine that reads an input itself, in parts and on several machines (a
 * Spark job), as the library reports them: a {@link RetryAuditException} with the one-line diagnostic
 * and, for a limit, the {@link dev.retryaudit.model.Limits} setting that raises it. The errors that
 * only the whole input shows are made here with the library's own words.
 */
public final class InputRejections {
    private InputRejections() {
    }

    public static RetryAuditException of(InputException e) {
        return RetryAuditException.of(e);
    }

    /** The operation at {@code l} whose id an operation before it in the input set has. */
    public static InputException duplicateId(Location l) {
        return InputSet.duplicateId(l);
    }

    /** The operation at {@code l}, one past the operations limit. */
    public static InputException overOperations(Limits limits, Location l) {
        return InputSet.overOperations(limits, l);
    }

    /** The byte limit passed at {@code line}:{@code column} (the first byte past it) of {@code source}. */
    public static InputException overBytes(String source, long line, long column, Limits limits) {
        InputException over = ParseFailures.bytesExceeded(source, line, column, null, limits.bytes());
        return InputException.rejected(source, line, column, "$", over.detail()).over(over.limit());
    }

    /** A source that could not be read. */
    public static InputException unreadable(String source, IOException e) {
        return ParseFailures.unreadable(source, e);
    }
}

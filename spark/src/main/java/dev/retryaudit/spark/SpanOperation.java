package dev.retryaudit.spark;

import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.api.split.InputRejection;
import dev.retryaudit.api.split.LineReader;
import dev.retryaudit.model.Operation;
import java.util.ArrayList;
import java.util.List;

/**
 * The lines of one spans operation, read, in line order, and where its first one is: built into the operation
 * as the command line merges them, with the fact the input-wide checks need, or the error it is.
 */
final class SpanOperation {
    private final int source;
    private final long first;
    private final List<LineReader.Line> lines = new ArrayList<>(2);

    SpanOperation(int source, long first) {
        this.source = source;
        this.first = first;
    }

    /** Adds {@code line}: how many lines the operation has now. */
    int add(LineReader.Line line) {
        lines.add(line);
        return lines.size();
    }

    /** The operation, or null when its lines do not make one; its facts go to {@code facts}, its error to {@code side}. */
    Operation build(LineReader reader, List<Item> side, OperationFacts facts) {
        try {
            return built(reader.operation(lines), source, first, facts);
        } catch (RetryAuditException e) {
            return failed(e, source, first, side, facts);
        } finally {
            lines.clear();
        }
    }

    /**
     * Held operation {@code g} of source {@code source} of {@code reader} ({@link LineReader#hold}), or null when
     * its lines do not make one; its facts go to {@code facts}, its error to {@code side}.
     */
    static Operation build(LineReader reader, int source, int g, List<Item> side, OperationFacts facts) {
        long first = reader.heldFirstLine(source, g);
        try {
            return built(reader.heldOperation(source, g), source, first, facts);
        } catch (RetryAuditException e) {
            return failed(e, source, first, side, facts);
        }
    }

    private static Operation built(Operation op, int source, long first, OperationFacts facts) {
        facts.built(source, op, first);
        return op;
    }

    private static Operation failed(RetryAuditException e, int source, long first, List<Item> side,
            OperationFacts facts) {
        // An error on a later line of the operation is met while reading; one at its first line (no
        // attempt, no tool) at the end of the source.
        side.add(Item.of(e.line() == first ? InputRejection.atEnd(source, e.line(), e.column(), e)
                : InputRejection.reading(source, e)));
        facts.failed(source, first);
        return null;
    }
}

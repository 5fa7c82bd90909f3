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

    /** The operation, or null when its lines do not make one; its fact, or its error, goes to {@code side}. */
    Operation build(LineReader reader, List<Item> side) {
        try {
            return built(reader.operation(lines), source, first, side);
        } catch (RetryAuditException e) {
            return failed(e, source, first, side);
        } finally {
            lines.clear();
        }
    }

    /**
     * Held operation {@code g} of source {@code source} of {@code reader} ({@link LineReader#hold}), or null when
     * its lines do not make one; its fact, or its error, goes to {@code side}.
     */
    static Operation build(LineReader reader, int source, int g, List<Item> side) {
        long first = reader.heldFirstLine(source, g);
        try {
            return built(reader.heldOperation(source, g), source, first, side);
        } catch (RetryAuditException e) {
            return failed(e, source, first, side);
        }
    }

    private static Operation built(Operation op, int source, long first, List<Item> side) {
        side.add(Item.of(new Item.Stat(source, op.location().line(), op.location().column(), first, op.id(),
                op.location(), op.attempts().size())));
        return op;
    }

    private static Operation failed(RetryAuditException e, int source, long first, List<Item> side) {
        // An error on a later line of the operation is met while reading; one at its first line (no
        // attempt, no tool) at the end of the source.
        side.add(Item.of(e.line() == first ? InputRejection.atEnd(source, e.line(), e.column(), e)
                : InputRejection.reading(source, e)));
        side.add(Item.of(new Item.Stat(source, first, 1, first, null, null, 0)));
        return null;
    }
}

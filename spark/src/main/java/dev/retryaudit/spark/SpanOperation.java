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
            Operation op = reader.operation(lines);
            side.add(Item.of(new Item.Stat(source, op.location().line(), op.location().column(), first, op.id(),
                    op.location(), op.attempts().size())));
            return op;
        } catch (RetryAuditException e) {
            // An error on a later line of the operation is met while reading; one at its first line (no
            // attempt, no tool) at the end of the source.
            side.add(Item.of(e.line() == first ? InputRejection.atEnd(source, e.line(), e.column(), e)
                    : InputRejection.reading(source, e)));
            side.add(Item.of(new Item.Stat(source, first, 1, first, null, null, 0)));
            return null;
        } finally {
            lines.clear();
        }
    }
}

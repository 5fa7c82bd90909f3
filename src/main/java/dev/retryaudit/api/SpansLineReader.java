package dev.retryaudit.api;

import dev.retryaudit.input.operations.SpanLines;
import dev.retryaudit.model.InputException;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Operation;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code spans} JSON Lines read a line at a time, for an engine that splits an input over machines:
 * each line checked on its own at its place in its source, with the command line's messages, and
 * keyed by its operation; the lines of one key, brought together from anywhere, built into the
 * operation as the command line builds it. Not thread-safe: one per thread.
 */
public final class SpansLineReader {
    private final SpanLines lines;

    public SpansLineReader(Limits limits) {
        this.lines = new SpanLines(limits);
    }

    /**
     * The key that groups {@code line} with the other lines of its operation in its source (its
     * operation_id, else its idempotency key), or null for a blank line; rejects a line the command
     * line would reject, at its place.
     */
    public String key(SourceLine line) throws InputException {
        SpanLines.Keyed k = lines.key(line.text());
        return k == null ? null : k.key();
    }

    /**
     * The operation of {@code group}, lines of one {@link #key} in line order: merged and checked as
     * the command line merges them (fields that disagree, the attempts limit, no attempt, no tool).
     */
    public Operation operation(List<SourceLine> group) throws InputException {
        List<SpanLines.Text> texts = new ArrayList<>(group.size());
        group.forEach(l -> texts.add(l.text()));
        return lines.operation(texts);
    }

    /** The rejection of a source with no span line (blank lines only, or none). */
    public static InputException empty(String source) {
        return SpanLines.empty(source);
    }
}

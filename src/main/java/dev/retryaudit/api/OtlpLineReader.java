package dev.retryaudit.api;

import dev.retryaudit.input.foreign.RetryLinker;
import dev.retryaudit.input.foreign.otlp.OtlpLines;
import dev.retryaudit.model.InputException;
import dev.retryaudit.model.Limits;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * OTLP/JSON Lines (one trace export a line, or a span exporter's log of them) read a line at a time,
 * for an engine that splits an input over machines: each line checked on its own at its place in its
 * source, with the command line's messages, and sent to the linking contexts of its attempt spans;
 * the lines of one context, brought together from anywhere, linked into operations as the command
 * line links a whole source. Not thread-safe: one per thread.
 */
public final class OtlpLineReader {
    private final OtlpLines lines;

    /**
     * A reader of sources that are exports, or, for the sources (by index) in {@code logs}, logs whose
     * lines carry exports after a log prefix ({@link #isLog}).
     */
    public OtlpLineReader(Limits limits, Set<Integer> logs) {
        this.lines = new OtlpLines(limits, logs);
    }

    /** Whether a source whose first bytes (up to 64 KiB, or all of a shorter one) are {@code head} is a span exporter's log. */
    public static boolean isLog(byte[] head) {
        return OtlpLines.isLog(head);
    }

    /** Whether the line holds an export (in a log: carries one after its prefix), not blank. */
    public boolean holdsExport(SourceLine line) {
        return lines.holdsExport(line.text());
    }

    /**
     * The keys of the linking contexts of the line's attempt spans, in the order first seen (none for
     * a line with no attempt), or null for a blank line; rejects a line the command line would reject.
     */
    public List<String> contexts(SourceLine line) throws InputException {
        return lines.contexts(line.text());
    }

    /** One line read once, to be linked in each of its linking contexts without reading it again. */
    public static final class Line {
        private final SourceLine line;
        private final OtlpLines.Line read;

        private Line(SourceLine line, OtlpLines.Line read) {
            this.line = line;
            this.read = read;
        }

        /** The keys of the linking contexts of the line's attempt spans, in the order first seen. */
        public List<String> contexts() {
            return read.contexts();
        }
    }

    /** The line read, or null for a blank line; rejects a line the command line would reject. */
    public Line read(SourceLine line) throws InputException {
        OtlpLines.Line read = lines.line(line.text());
        return read == null ? null : new Line(line, read);
    }

    /**
     * The operations of {@code context}, without their parents, in the order of their first spans:
     * {@code group}, read by this reader's settings and in line order, are the lines of one source that
     * hold its spans. {@code single}: the source holds one export only, and locations carry JSON
     * Pointers as the command line gives them.
     */
    public List<LinkedOperation> operations(String context, List<Line> group, boolean single) throws InputException {
        List<OtlpLines.Line> read = new ArrayList<>(group.size());
        for (Line l : group) {
            read.add(l.read);
        }
        SourceLine first = group.get(0).line;
        List<LinkedOperation> out = new ArrayList<>();
        for (RetryLinker.Linked l : lines.operations(context, read, first.source(), first.sourceIndex(), single)) {
            out.add(new LinkedOperation(l));
        }
        return out;
    }

    /** The rejection of a source with no export (blank lines only, none, or a log with none). */
    public static InputException empty(String source, boolean log) {
        return OtlpLines.empty(source, log);
    }
}

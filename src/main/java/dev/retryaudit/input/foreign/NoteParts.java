package dev.retryaudit.input.foreign;

import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.model.InputNote;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The input notes of sources read in parts (lines here, linking contexts there), kept so that parts
 * merge in any split and order into the notes the reader gives a whole source: each note with its
 * place in the order the reader makes them (the lines' notes in line order, the counts of unused
 * spans, the count of spans that stood twice, the counts over every request of the source, then the linking's notes context by context),
 * the counts summed, as many kept as the reader keeps ({@link ReadContext#MAX_NOTES}) and the rest
 * counted. Not thread-safe.
 */
public final class NoteParts implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Where a note is made, in the reader's order: while each line is read. */
    public static final int READ = 0;
    /** The counts of spans of protocols the audit does not read ({@link UnusedSpans}). */
    static final int UNUSED = 1;
    /** The count of spans that stood twice and were read once ({@link DuplicateSpans}). */
    static final int DUPLICATES = 2;
    /** The count of requests that ended with nothing recorded ({@link Abandoned}). */
    static final int ABANDONED = 3;
    /** The count of requests that cannot be linked ({@link Unlinkable}). */
    static final int UNLINKABLE = 4;
    /** The requests of one context linked ({@link RequestChains}). */
    static final int CHAINS = 5;
    /** The gRPC calls linked ({@link GrpcCalls}). */
    static final int GRPC = 6;
    /** The SDK call spans checked against their sends ({@link CallSpans}). */
    static final int CALLS = 7;
    /** The count of requests to an MCP endpoint under no tool span ({@link McpTransport}). */
    static final int MCP = 8;
    /** The count of GenAI model-call spans with no request under them ({@link ModelCalls}). */
    static final int MODEL = 9;
    /** The count of retried 429 and 503 responses whose spans record no response header ({@link UncapturedWaits}). */
    static final int UNCAPTURED = 10;

    /** A note and its place in the order the reader makes the notes of its source. */
    private record Made(int phase, long order, long seq, InputNote note) implements Serializable {
    }

    private static final Comparator<Made> MADE = Comparator.comparingInt(Made::phase)
            .thenComparingLong(Made::order).thenComparingLong(Made::seq);

    /** A count over the whole source, placed at its first span (by order), with that span's words. */
    private static final class Count implements Serializable {
        private static final long serialVersionUID = 1L;
        final int kind;
        final String what;
        long line;
        long column;
        long order;
        final long[] counts;
        String[] words;

        Count(int kind, String what, long line, long column, long order, long[] counts, String[] words) {
            this.kind = kind;
            this.what = what;
            this.line = line;
            this.column = column;
            this.order = order;
            this.counts = counts.clone();
            this.words = words;
        }

        void add(Count o) {
            for (int i = 0; i < counts.length; i++) {
                counts[i] += o.counts[i];
            }
            if (o.order < order) {
                line = o.line;
                column = o.column;
                order = o.order;
                words = o.words;
            }
        }

        String text() {
            return NoteParts.text(kind, what, counts, words);
        }
    }

    /** The note of kind {@code kind} on {@code what} with {@code counts}, quoting the first span's {@code words}. */
    static String text(int kind, String what, long[] counts, String[] words) {
        return switch (kind) {
            case UNUSED -> UnusedSpans.text(counts[0], what);
            case ABANDONED -> Abandoned.text(counts[0], words[0], words[1], words[2]);
            case MCP -> McpTransport.text(counts[0], words[0], words[1], words[2]);
            case MODEL -> ModelCalls.text(counts[0], words[0], words[1]);
            case DUPLICATES -> DuplicateSpans.text(counts[0], words[0]);
            case UNCAPTURED -> UncapturedWaits.text(counts[0], words[0], words[1], words[2]);
            default -> Unlinkable.text(counts[0], counts[1], words[0]);
        };
    }

    /** One source's notes. */
    private static final class Source implements Serializable {
        private static final long serialVersionUID = 1L;
        final String name;
        final List<Made> kept = new ArrayList<>();
        long leftOut;
        final Map<String, Count> counts = new LinkedHashMap<>();

        Source(String name) {
            this.name = name;
        }

        void keep(Made m) {
            kept.add(m);
            if (kept.size() >= 2 * ReadContext.MAX_NOTES) {
                trim();
            }
        }

        /** Only the first notes made can be kept in the end: the others are counted. */
        void trim() {
            if (kept.size() > ReadContext.MAX_NOTES) {
                kept.sort(MADE);
                leftOut += kept.size() - ReadContext.MAX_NOTES;
                kept.subList(ReadContext.MAX_NOTES, kept.size()).clear();
            }
        }

        void count(Count c) {
            Count had = counts.putIfAbsent(c.kind + "\0" + c.what, c);
            if (had != null) {
                had.add(c);
            }
        }
    }

    private final Map<Integer, Source> sources = new TreeMap<>();

    private Source source(String name, int index) {
        return sources.computeIfAbsent(index, i -> new Source(name));
    }

    /** Whether there is no note. */
    public boolean isEmpty() {
        return sources.isEmpty();
    }

    /**
     * Keeps the notes {@code scratch} made, in the order it made them, at {@code phase} and
     * {@code order} of the reader's order; with those it left out counted.
     */
    public void add(ReadContext scratch, int phase, long order) {
        add(scratch.source(), scratch.sourceIndex(), phase, order, scratch.made(), scratch.leftOut());
    }

    /** Keeps {@code made}, notes of source {@code sourceIndex} in the order they were made, and counts {@code leftOut} more. */
    public void add(String source, int sourceIndex, int phase, long order, List<InputNote> made, long leftOut) {
        if (made.isEmpty() && leftOut == 0) {
            return;
        }
        Source s = source(source, sourceIndex);
        for (int i = 0; i < made.size(); i++) {
            s.keep(new Made(phase, order, i, made.get(i)));
        }
        s.leftOut += leftOut;
    }

    /** Adds {@code counts} of {@code kind} to the count of the source, placed at {@code first} when it is the first span. */
    void count(ReadContext ctx, int kind, String what, ForeignSpan first, long[] counts, String... words) {
        source(ctx.source(), ctx.sourceIndex())
                .count(new Count(kind, what, first.line, first.column, first.order, counts, words));
    }

    /** Adds {@code counts} of {@code kind} to the count of the source, placed at {@code line}:{@code column}, {@code order}. */
    void count(String source, int sourceIndex, int kind, String what, long line, long column, long order,
            long[] counts) {
        source(source, sourceIndex).count(new Count(kind, what, line, column, order, counts, new String[0]));
    }

    /** Adds the notes of {@code other}, a part of the same input. */
    public void merge(NoteParts other) {
        other.sources.forEach((index, o) -> {
            Source s = source(o.name, index);
            o.kept.forEach(s::keep);
            s.leftOut += o.leftOut;
            o.counts.values().forEach(c -> s.count(new Count(c.kind, c.what, c.line, c.column, c.order, c.counts,
                    c.words)));
        });
    }

    /** These notes apart, one part for each source (by index). */
    public Map<Integer, NoteParts> bySource() {
        Map<Integer, NoteParts> out = new TreeMap<>();
        sources.forEach((index, s) -> {
            NoteParts one = new NoteParts();
            one.sources.put(index, s);
            out.put(index, one);
        });
        return out;
    }

    /** The notes of each source (by index), as the reader gives a whole source: in source order, the last counting those left out. */
    public Map<Integer, List<InputNote>> finish() {
        Map<Integer, List<InputNote>> out = new TreeMap<>();
        sources.forEach((index, s) -> {
            List<Made> all = new ArrayList<>(s.kept);
            for (Count c : s.counts.values()) {
                all.add(new Made(c.kind, c.order, 0, new InputNote(s.name, c.line, c.column, c.text())));
            }
            all.sort(MADE);
            long leftOut = s.leftOut + Math.max(0, all.size() - ReadContext.MAX_NOTES);
            List<InputNote> notes = new ArrayList<>();
            for (int i = 0; i < Math.min(all.size(), ReadContext.MAX_NOTES); i++) {
                notes.add(all.get(i).note());
            }
            notes.sort(Comparator.comparingLong(InputNote::line).thenComparingLong(InputNote::column));
            if (leftOut > 0) {
                notes.add(ReadContext.leftOut(s.name, leftOut));
            }
            out.put(index, notes);
        });
        return out;
    }
}

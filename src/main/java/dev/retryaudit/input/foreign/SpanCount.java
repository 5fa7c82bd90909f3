package dev.retryaudit.input.foreign;

import dev.retryaudit.input.reader.ReadContext;
import java.util.function.Function;

/**
 * The spans of a source that one note counts ({@link Abandoned}, {@link McpTransport}, {@link ModelCalls},
 * {@link Unlinkable}, {@link UncapturedWaits}): its counters, and the first span counted by its place in the
 * source, where the note stands and whose words it quotes. The note goes to the read context, or, for a
 * source linked in parts, its counts go to the {@link NoteParts}, which sum them over the parts.
 */
final class SpanCount {
    private final int kind;
    private final long[] counts;
    private ForeignSpan first;

    /** A count of note kind {@code kind} ({@link NoteParts}) with {@code counters} counters. */
    SpanCount(int kind, int counters) {
        this.kind = kind;
        this.counts = new long[counters];
    }

    /** Counts {@code s} in counter 0. */
    void add(ForeignSpan s) {
        add(s, 0);
    }

    /** Counts {@code s} in counter {@code counter}. */
    void add(ForeignSpan s, int counter) {
        counts[counter]++;
        first = first == null || s.order < first.order ? s : first;
    }

    /** Makes the note with the first span's {@code words}, or counts it in {@code parts}; nothing when no span was counted. */
    void note(ReadContext ctx, NoteParts parts, Function<ForeignSpan, String[]> words) {
        if (first == null) {
            return;
        }
        if (parts != null) {
            parts.count(ctx, kind, "", first, counts, words.apply(first));
            return;
        }
        ctx.note(first.line, first.column, NoteParts.text(kind, "", counts, words.apply(first)));
    }

    /** The words of a note on a request: its span id, method and URL. */
    static String[] request(ForeignSpan s) {
        return new String[] {s.spanId, s.method, s.url};
    }
}

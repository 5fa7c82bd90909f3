package dev.retryaudit.input.foreign.otlp;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.input.foreign.ForeignSpan;
import dev.retryaudit.input.foreign.SpanScratch;
import dev.retryaudit.input.foreign.UnusedSpans;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.input.reader.LineChunks;
import dev.retryaudit.input.reader.LineDiscipline;
import dev.retryaudit.input.reader.ParallelChunks;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.model.internal.InputException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads the exports of OTLP/JSON Lines in chunks of whole lines on several cores
 * ({@link ParallelChunks}): a chunk's exports are read on a thread of their own into their attempt
 * spans, notes and spans of other protocols, which are then handed on in line order (to the linker,
 * the source's notes, the counts), each span at the line and in the order one pass would give it, so
 * that the operations, notes and limits are those of one pass. A chunk that does not read (an error,
 * an export over several lines, the start of a document that is not JSON Lines) leaves the source from
 * there to the one-pass reader, which words its error exactly as always.
 */
final class OtlpChunks {
    /** What one chunk held: its attempt spans, where each export starts (line within the chunk), its notes, the spans of other protocols, every span it read. */
    private record Read(List<ForeignSpan> spans, long[] starts, ReadContext notes, UnusedSpans unused, long spansRead) {
    }

    private final ReadContext ctx;
    private final Consumer<ForeignSpan> linker;
    private final SpanScratch scratch;
    private final LineDiscipline lines;
    /** The spans of the chunks handed on so far, attempts or not: the place in the source of the next one's. */
    private long spansRead;

    private OtlpChunks(ReadContext ctx, Consumer<ForeignSpan> linker, SpanScratch scratch, LineDiscipline lines) {
        this.ctx = ctx;
        this.linker = linker;
        this.scratch = scratch;
        this.lines = lines;
    }

    /**
     * Reads the chunks of the source into {@code linker}, {@code scratch} (the spans of other protocols,
     * and the number of spans read) and {@code lines}; returns null when every chunk was read, else the
     * source from the first line not read, for the one-pass reader to go on with the same three.
     */
    static InputStream read(ReadContext ctx, Consumer<ForeignSpan> linker, SpanScratch scratch, LineDiscipline lines)
            throws IOException, InputException {
        OtlpChunks chunks = new OtlpChunks(ctx, linker, scratch, lines);
        InputStream rest = ParallelChunks.run(ctx.lineChunks(ParallelChunks.chunkBytes()), chunks::parse, chunks::merge);
        scratch.startAfter(chunks.spansRead);
        return rest;
    }

    /** Reads one chunk, on any thread; throws at the first thing one pass would not read the same way. */
    private Read parse(LineChunks.Chunk chunk) throws IOException, InputException {
        JsonCursor c = ctx.chunkCursor(chunk, false);
        ReadContext notes = ctx.apart();
        SpanScratch s = new SpanScratch();
        LineDiscipline discipline = OtlpReader.discipline(ctx.source(), true);
        List<ForeignSpan> spans = new ArrayList<>();
        long[] starts = new long[64];
        int records = 0;
        try (JsonParser p = c.parser()) {
            JsonToken t;
            while ((t = c.next()) != null) {
                discipline.start(c);
                if (t != JsonToken.START_OBJECT) {
                    throw c.error("$", "expected an OTLP trace export");
                }
                OtlpReader.readExport(c, notes, spans::add, s, "", true);
                discipline.end(c);
                if (records == starts.length) {
                    starts = Arrays.copyOf(starts, 2 * records);
                }
                starts[records++] = discipline.startLine();
            }
        }
        return new Read(spans, Arrays.copyOf(starts, records), notes, s.unused.take(), s.spansRead());
    }

    /** Hands on what a chunk held, chunk after chunk in line order, on the reading thread. */
    private void merge(LineChunks.Chunk chunk, Read read) {
        long before = chunk.firstLine() - 1;
        for (long start : read.starts()) {
            lines.counted(before + start);
        }
        for (ForeignSpan span : read.spans()) {
            span.line += before;
            span.order += spansRead;
            linker.accept(span);
        }
        ctx.noteAll(read.notes(), before);
        scratch.unused.add(read.unused(), before);
        spansRead += read.spansRead();
    }
}

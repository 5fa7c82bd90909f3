package dev.retryaudit.input.reader;

import dev.retryaudit.json.FieldMask;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.json.StrictJson;
import dev.retryaudit.json.StringPool;
import dev.retryaudit.model.InputNote;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Location;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.UnaryOperator;

/** What a reader needs for one source: its name and position, the byte stream, the strict parser setup, limits and the sink. */
public final class ReadContext {
    private final String source;
    private final int sourceIndex;
    private final InputStream in;
    private final StrictJson json;
    private final Limits limits;
    private final OperationSink sink;
    private JsonCursor cursor;
    private final List<InputNote> notes = new ArrayList<>();
    private long notesLeftOut;
    private final SpanTally withoutAttempt = new SpanTally();

    /** The most notes kept for one source; the rest are counted in a last note. */
    public static final int MAX_NOTES = 100;
    /** Repeated values of the chunks one thread parses, whatever their source. */
    private static final ThreadLocal<StringPool> CHUNK_STRINGS = ThreadLocal.withInitial(() -> new StringPool(1 << 16));

    public ReadContext(String source, int sourceIndex, InputStream in, StrictJson json, Limits limits, OperationSink sink) {
        this.source = source;
        this.sourceIndex = sourceIndex;
        this.in = in;
        this.json = json;
        this.limits = limits;
        this.sink = sink;
    }

    /** Opens the strict parser over the source; call once. */
    public JsonCursor open() throws IOException {
        return open(in);
    }

    /** Opens the strict parser over the source as {@code filter} rewrites it; call once instead of {@link #open()}. */
    public JsonCursor open(UnaryOperator<InputStream> filter) throws IOException {
        return open(filter.apply(in));
    }

    private JsonCursor open(InputStream stream) throws IOException {
        cursor = new JsonCursor(json.parser(stream), source, limits);
        return cursor;
    }

    /** Up to {@code n} first bytes of the source, which stay to be read; fewer at its end, none when it cannot be peeked. */
    public byte[] peek(int n) throws IOException {
        if (!in.markSupported()) {
            return new byte[0];
        }
        in.mark(n);
        try {
            return in.readNBytes(n);
        } finally {
            in.reset();
        }
    }

    /**
     * Opens the parser without Jackson's duplicate-key detection, for readers whose objects have only
     * known fields and check duplicates themselves with a {@link FieldMask}; call once.
     */
    public JsonCursor openCheckingDuplicatesItself() throws IOException {
        return openCheckingDuplicatesItself(UnaryOperator.identity());
    }

    /**
     * Opens the parser as {@link #openCheckingDuplicatesItself()} does, over the source as {@code filter}
     * rewrites it; call once instead of it.
     */
    public JsonCursor openCheckingDuplicatesItself(UnaryOperator<InputStream> filter) throws IOException {
        JsonCursor c = open(filter);
        c.parser().disable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        return c;
    }

    /** The source cut into chunks of whole lines of about {@code size} bytes, for a reader of JSON Lines. */
    public LineChunks lineChunks(int size) {
        return new LineChunks(in, size);
    }

    /**
     * A parser over one chunk of the source, as {@link #open()} sets it up (as
     * {@link #openCheckingDuplicatesItself()} does when {@code checksDuplicatesItself}), sharing repeated
     * values through a pool of the calling thread's; safe to use on another thread. Lines count from the
     * chunk's start. Throws at a start that is not plain UTF-8 JSON (a byte order mark, another encoding),
     * which only the one-pass reader judges.
     */
    public JsonCursor chunkCursor(LineChunks.Chunk chunk, boolean checksDuplicatesItself) throws IOException {
        byte[] bytes = chunk.bytes();
        for (int i = 0; i < Math.min(4, chunk.length()); i++) {
            if (bytes[i] == 0 || bytes[i] < 0) {
                throw new IOException("not plain UTF-8 JSON at the start of a chunk");
            }
        }
        JsonCursor c = new JsonCursor(json.parser(bytes, 0, chunk.length()), source, limits, CHUNK_STRINGS.get());
        if (checksDuplicatesItself) {
            c.parser().disable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        }
        return c;
    }

    /**
     * A context of the same source with no stream and no sink, whose notes are kept apart: for reading a
     * chunk of the source on another thread. {@link #noteAll} then makes its notes here, in their order.
     */
    public ReadContext apart() {
        return new ReadContext(source, sourceIndex, InputStream.nullInputStream(), json, limits, null);
    }

    /**
     * Makes the notes {@code apart} made, in the order it made them, {@code lines} lines further on (a
     * note on the whole source stays at 0:0), as if they had been made here; those it left out count as
     * left out here too, and so do the spans it counted that were no attempt.
     */
    public void noteAll(ReadContext apart, long lines) {
        for (InputNote n : apart.notes) {
            note(n.line() == 0 ? 0 : n.line() + lines, n.column(), n.message());
        }
        notesLeftOut += apart.notesLeftOut;
        withoutAttempt.add(apart.withoutAttempt);
    }

    /** The spans of this source read so far that were no attempt, by why (a reader counts each in it). */
    public SpanTally withoutAttempt() {
        return withoutAttempt;
    }

    /** The cursor opened last, or null: where an error from the stream itself happened. */
    public JsonCursor cursor() {
        return cursor;
    }

    public String source() {
        return source;
    }

    /** The position of the source among the sources of the run. */
    public int sourceIndex() {
        return sourceIndex;
    }

    public Limits limits() {
        return limits;
    }

    public OperationSink sink() {
        return sink;
    }

    /** A location in this source, for readers that place what they read only once the whole source is read. */
    public Location location(long line, long column, String pointer) {
        return new Location(source, sourceIndex, line, column, pointer);
    }

    /** The location of the cursor's current token, with a JSON Pointer (null in JSON Lines). */
    public Location location(JsonCursor c, String pointer) {
        com.fasterxml.jackson.core.JsonLocation at = c.tokenLocation();
        return new Location(source, sourceIndex, JsonCursor.line(at), JsonCursor.column(at), pointer);
    }

    /** Notes a reading decision at {@code line}:{@code column} (0:0 for the whole source); notes never change the verdict. */
    public void note(long line, long column, String message) {
        if (notes.size() < MAX_NOTES) {
            notes.add(new InputNote(source, line, column, message));
        } else {
            notesLeftOut++;
        }
    }

    /** The notes kept so far, in the order they were made, without the one counting those left out. */
    public List<InputNote> made() {
        return List.copyOf(notes);
    }

    /** How many notes were made past {@link #MAX_NOTES} and left out. */
    public long leftOut() {
        return notesLeftOut;
    }

    /** The last note of a source that had more than {@link #MAX_NOTES}: how many were left out. */
    public static InputNote leftOut(String source, long count) {
        return new InputNote(source, 0, 0, count + " more notes like these are left out");
    }

    /** The notes made so far, in source order, with a last one counting those left out. */
    public List<InputNote> notes() {
        List<InputNote> out = new ArrayList<>(notes);
        out.sort(Comparator.comparingLong(InputNote::line).thenComparingLong(InputNote::column));
        if (notesLeftOut > 0) {
            out.add(leftOut(source, notesLeftOut));
        }
        return out;
    }
}

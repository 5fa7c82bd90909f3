package dev.retryaudit.input;

import dev.retryaudit.model.Location;
import java.io.IOException;
import java.io.InputStream;

/** What a reader needs for one source: its name and position, the byte stream, the strict parser setup, limits and the sink. */
public final class ReadContext {
    private final String source;
    private final int sourceIndex;
    private final InputStream in;
    private final StrictJson json;
    private final Limits limits;
    private final OperationSink sink;
    private JsonCursor cursor;

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
    JsonCursor open(java.util.function.UnaryOperator<InputStream> filter) throws IOException {
        return open(filter.apply(in));
    }

    private JsonCursor open(InputStream stream) throws IOException {
        cursor = new JsonCursor(json.parser(stream), source, limits);
        return cursor;
    }

    /** Up to {@code n} first bytes of the source, which stay to be read; fewer at its end, none when it cannot be peeked. */
    byte[] peek(int n) throws IOException {
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
    JsonCursor openCheckingDuplicatesItself() throws IOException {
        JsonCursor c = open();
        c.parser().disable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        return c;
    }

    /** The cursor opened last, or null: where an error from the stream itself happened. */
    JsonCursor cursor() {
        return cursor;
    }

    public String source() {
        return source;
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
        return new Location(source, sourceIndex, c.line(), c.column(), pointer);
    }
}

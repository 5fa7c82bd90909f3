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
        cursor = new JsonCursor(json.parser(in), source, limits);
        return cursor;
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

    /** The location of the cursor's current token, with a JSON Pointer (null in JSON Lines). */
    public Location location(JsonCursor c, String pointer) {
        return new Location(source, sourceIndex, c.line(), c.column(), pointer);
    }
}

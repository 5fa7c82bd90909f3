package dev.retryaudit.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.input.InputSet;
import dev.retryaudit.json.ByteBudget;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.json.ParseFailures;
import dev.retryaudit.json.StrictJson;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.internal.InputException;
import java.io.IOException;
import java.io.InputStream;

/**
 * One of the project's own strict JSON documents (a policy, a tools file, a baseline report), read the one way:
 * opened as an input (a file that cannot be read is exit 66), parsed under the limits and a byte budget, one
 * JSON object with no trailing content, read field by field (each field's name remembered with its place), and
 * a {@code version} that must be 1.
 */
final class StrictDocument {
    /** Reads a whole document from its start. */
    interface Body<T> {
        T read(StrictDocument doc) throws IOException, InputException;
    }

    /** Reads the fields of one object, one call per field, positioned at its value. */
    interface Fields {
        void read(String name) throws IOException, InputException;
    }

    private final JsonCursor c;
    private long nameLine;
    private long nameColumn;
    private Location start;

    private StrictDocument(JsonCursor c) {
        this.c = c;
    }

    /** Reads the document in {@code source} with {@code body}; a file that cannot be opened or read is unreadable. */
    static <T> T read(InputSet.Source source, Limits limits, Body<T> body) throws InputException {
        try (InputStream in = InputSet.open(source)) {
            return read(in, source.name(), limits, body);
        } catch (IOException e) {
            throw ParseFailures.unreadable(source.name(), e);
        }
    }

    /** Reads the document in {@code raw}, named {@code source} in errors, with {@code body}. */
    static <T> T read(InputStream raw, String source, Limits limits, Body<T> body) throws IOException, InputException {
        ByteBudget budget = new ByteBudget(limits.bytes());
        try (JsonParser p = new StrictJson(limits).parser(budget.wrap(raw))) {
            return ParseFailures.reading(source, () -> p, limits,
                    () -> body.read(new StrictDocument(new JsonCursor(p, source, limits))));
        }
    }

    /** The cursor over the document. */
    JsonCursor cursor() {
        return c;
    }

    /**
     * The document's one object, {@code expected} (for example "a policy"), read by {@code fields}; an empty
     * input is {@code empty}, and nothing may follow the object.
     */
    void object(String empty, String expected, Fields fields) throws IOException, InputException {
        if (c.next() == null) {
            throw InputException.rejected(c.source(), 1, 1, "$", empty);
        }
        c.expectObject(expected);
        start = new Location(c.source(), 0, c.line(), c.column(), "");
        fields(fields);
        if (c.next() != null) {
            throw c.error("$", "trailing content after the JSON document");
        }
    }

    /** Reads the fields of the object the cursor is in, remembering where each field's name is. */
    void fields(Fields fields) throws IOException, InputException {
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            nameLine = c.line();
            nameColumn = c.column();
            c.value();
            fields.read(name);
        }
    }

    /** Where the document's object starts, once {@link #object} has begun it. */
    Location start() {
        return start;
    }

    /** The line of the last field name read. */
    long nameLine() {
        return nameLine;
    }

    /** The column of the last field name read. */
    long nameColumn() {
        return nameColumn;
    }

    /**
     * The {@code version} field at the cursor: 1, or null when it may be absent ({@code optional}); any other
     * value is "unsupported {@code what}: this reader reads version 1".
     */
    void version(boolean optional, String what) throws IOException, InputException {
        Long v = c.optLong(Long.MIN_VALUE, Long.MAX_VALUE);
        if (v == null ? !optional : v != 1) {
            throw c.error("unsupported " + what + ": this reader reads version 1");
        }
    }
}

package dev.retryaudit.input.foreign;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.json.JsonPointers;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.model.internal.InputException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The span fields Zipkin and Jaeger write alike. Trace and span ids are hex strings of up to 32
 * (trace) or 16 (span) digits, which their own readers left-pad with zeros (Jaeger drops leading
 * zeros, Zipkin allows 64-bit trace ids); padded, they are the OTLP ids the linking step compares.
 * Times and durations are counts of microseconds. Tag values are strings where OTLP has arrays: a
 * header attribute converted by the OpenTelemetry Collector arrives as the JSON text of its array.
 */
public final class ZipkinJaegerFields {
    public static final int TRACE = 32;
    public static final int SPAN = 16;
    /** The latest microsecond whose nanosecond, and whose sum with a duration as long, fit 64 bits. */
    private static final long MAX_MICROS = Long.MAX_VALUE / 2000;
    private static final JsonFactory ARRAYS = new JsonFactory();

    private ZipkinJaegerFields() {
    }

    /** {@code id} left-padded to {@code digits} lower-case hex digits, or null when it is no such id. */
    static String padded(String id, int digits) {
        if (id == null || id.isEmpty() || id.length() > digits) {
            return null;
        }
        for (int i = 0; i < id.length(); i++) {
            char ch = id.charAt(i);
            if (!(ch >= '0' && ch <= '9' || ch >= 'a' && ch <= 'f' || ch >= 'A' && ch <= 'F')) {
                return null;
            }
        }
        return "0".repeat(digits - id.length()) + id.toLowerCase(Locale.ROOT);
    }

    /** The id at the cursor, left-padded to {@code digits}; null when absent; a bad one is refused at once. */
    public static String id(JsonCursor c, int digits) throws IOException, InputException {
        String raw = c.optString();
        String id = raw == null ? null : padded(raw, digits);
        if (raw != null && id == null) {
            throw c.error("expected an id of 1 to " + digits + " hexadecimal digits");
        }
        return id;
    }

    /** Reads id {@code which} (trace, span, parent) of the span into the scratch, with its place; returns it. */
    public static String id(JsonCursor c, SpanScratch s, int which, int digits) throws IOException, InputException {
        String id = id(c, digits);
        s.ids[which] = id;
        s.idPlaces[2 * which] = c.line();
        s.idPlaces[2 * which + 1] = c.column();
        return id;
    }

    /**
     * Requires the trace and span ids of every span, attempt or not: Zipkin and Jaeger write them on
     * every span, so an object without them is no span of theirs (a document of another format).
     */
    public static void requireIds(SpanScratch s, ReadContext ctx, String what) throws InputException {
        for (int which = 0; which < 2; which++) {
            if (s.ids[which] == null) {
                throw InputException.rejected(ctx.source(), s.line, s.column, JsonPointers.toPath(s.pointer()),
                        "missing required field " + s.idNames[which] + ": not " + what);
            }
        }
    }

    /**
     * The text of header attribute {@code key} as OTLP's array of values would give it: the values of
     * the JSON array text the OpenTelemetry Collector writes for one ({@code ["2"]}), joined with
     * {@code ", "}; any other text as it stands.
     */
    public static String headerText(String key, String text) {
        if (text == null || !text.startsWith("[") || !text.endsWith("]")
                || !OtlpAttribute.isRequestHeader(key) && !OtlpAttribute.isResponseHeader(key)) {
            return text;
        }
        List<String> values = new ArrayList<>();
        try (JsonParser p = ARRAYS.createParser(text)) {
            if (p.nextToken() != JsonToken.START_ARRAY) {
                return text;
            }
            JsonToken t;
            while ((t = p.nextToken()) == JsonToken.VALUE_STRING) {
                values.add(p.getText());
            }
            return t == JsonToken.END_ARRAY && p.nextToken() == null ? String.join(", ", values) : text;
        } catch (IOException e) {
            return text;
        }
    }

    /** A count of microseconds since the epoch, or a duration in them; -1 when absent. */
    public static long micros(JsonCursor c) throws IOException, InputException {
        Long v = c.optLong(0, MAX_MICROS);
        return v == null ? -1 : v;
    }

    /** Sets the span's start and end in nanoseconds from its start and duration in microseconds (-1: absent). */
    public static void times(SpanScratch s, long start, long duration) {
        if (start >= 0) {
            s.nanos[0] = start * 1000;
            s.nanos[1] = duration >= 0 ? (start + duration) * 1000 : 0;
        }
    }
}

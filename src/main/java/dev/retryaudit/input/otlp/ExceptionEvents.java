package dev.retryaudit.input.otlp;

import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.input.InputException;
import dev.retryaudit.input.foreign.AnyValue;
import dev.retryaudit.input.foreign.Http;
import dev.retryaudit.input.json.JsonCursor;
import dev.retryaudit.model.Outcome;
import java.io.IOException;

/**
 * What a span's {@code exception} events say about how its request failed: instrumentations that
 * write no {@code error.type} (OpenTelemetry Python under the old semantic conventions) record a
 * timeout only as span status ERROR and an exception event whose {@code exception.type} or
 * {@code exception.message} names it. Events are a hint: one of an unexpected shape is passed over.
 */
final class ExceptionEvents {
    private ExceptionEvents() {
    }

    /** The outcome the span's exception events name ({@link Http#errorOutcome}), the first that names one, or null. */
    static Outcome outcome(JsonCursor c, AnyValue.Span span) throws IOException, InputException {
        if (c.token() != JsonToken.START_ARRAY) {
            c.skip();
            return null;
        }
        Outcome found = null;
        while (c.next() != JsonToken.END_ARRAY) {
            Outcome o = event(c, span);
            found = found != null ? found : o;
        }
        return found;
    }

    private static Outcome event(JsonCursor c, AnyValue.Span span) throws IOException, InputException {
        if (c.token() != JsonToken.START_OBJECT) {
            c.skip();
            return null;
        }
        boolean exception = false;
        Outcome named = null;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            c.valueOfCheckedField();
            if (name.equals("name") && c.token() == JsonToken.VALUE_STRING) {
                exception = "exception".equals(c.optString());
            } else if (name.equals("attributes") && c.token() == JsonToken.START_ARRAY) {
                while (c.next() != JsonToken.END_ARRAY) {
                    Outcome o = attribute(c, span);
                    named = named != null ? named : o;
                }
            } else {
                c.skip();
            }
        }
        return exception ? named : null;
    }

    /** What an {@code exception.type} or {@code exception.message} attribute names, or null. */
    private static Outcome attribute(JsonCursor c, AnyValue.Span span) throws IOException, InputException {
        KeyValue kv = KeyValue.read(c);
        if (kv == null) {
            return null;
        }
        String key = kv.key();
        AnyValue value = kv.value();
        if (value == null || !("exception.type".equals(key) || "exception.message".equals(key))) {
            return null;
        }
        try {
            String text = value.string(key, span);
            return text == null ? null : Http.errorOutcome(text);
        } catch (InputException e) {
            return null;
        }
    }
}

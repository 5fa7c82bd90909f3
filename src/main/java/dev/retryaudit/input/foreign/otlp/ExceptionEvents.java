package dev.retryaudit.input.foreign.otlp;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.input.foreign.AnyValue;
import dev.retryaudit.input.foreign.ExceptionCauses;
import dev.retryaudit.input.foreign.Http;
import dev.retryaudit.input.foreign.ProtoNames;
import dev.retryaudit.input.foreign.SpanScratch;
import dev.retryaudit.json.Decimal;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Outcome;
import java.io.IOException;

/**
 * What a span's {@code exception} events say about how its request failed: instrumentations that
 * write no {@code error.type} (OpenTelemetry Python under the old semantic conventions) record a
 * timeout only as span status ERROR and an exception event whose {@code exception.type} or
 * {@code exception.message} names it, or, where a client wraps the failure, a cause in
 * {@code exception.stacktrace} ({@link ExceptionCauses}). Events are a hint: one of an unexpected
 * shape is passed over.
 */
final class ExceptionEvents {
    private ExceptionEvents() {
    }

    /**
     * The outcome the span's exception events name ({@link Http#errorOutcome}), the first that names one,
     * or null; notes the time of the first {@code Outbound message} event (a gRPC attempt's send) in the span.
     */
    static Outcome outcome(JsonCursor c, SpanScratch span) throws IOException, InputException {
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

    private static Outcome event(JsonCursor c, SpanScratch span) throws IOException, InputException {
        if (c.token() != JsonToken.START_OBJECT) {
            c.skip();
            return null;
        }
        boolean exception = false;
        boolean outbound = false;
        long time = 0;
        Outcome named = null;
        Outcome cause = null;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = ProtoNames.field(c);
            c.valueOfCheckedField();
            if (name.equals("name") && c.token() == JsonToken.VALUE_STRING) {
                String event = c.optString();
                exception = "exception".equals(event);
                outbound = "Outbound message".equals(event);
            } else if (name.equals("timeUnixNano")) {
                time = eventNanos(c);
            } else if (name.equals("attributes") && c.token() == JsonToken.START_ARRAY) {
                while (c.next() != JsonToken.END_ARRAY) {
                    KeyValue kv = KeyValue.read(c);
                    if (kv != null && "exception.stacktrace".equals(kv.key())) {
                        cause = cause != null ? cause : ExceptionCauses.outcome(text(kv, span));
                    } else if (kv != null) {
                        Outcome o = attribute(kv, span);
                        named = named != null ? named : o;
                    }
                }
            } else {
                c.skip();
            }
        }
        span.exceptionEvent |= exception;
        if (outbound && time != 0 && span.sendNanos == 0) {
            span.sendNanos = time;
        }
        return !exception ? null : named != null ? named : cause;
    }

    /** An event's time in unsigned nanoseconds (a decimal string or an integer); 0 when it is neither, as events are hints. */
    private static long eventNanos(JsonCursor c) throws IOException, InputException {
        if (c.token() == JsonToken.VALUE_NUMBER_INT && c.parser().getNumberType() == JsonParser.NumberType.LONG
                || c.token() == JsonToken.VALUE_NUMBER_INT && c.parser().getNumberType() == JsonParser.NumberType.INT) {
            long v = c.parser().getLongValue();
            return v < 0 ? 0 : v;
        }
        if (c.token() == JsonToken.VALUE_STRING) {
            String v = c.optString();
            if (v != null && !v.isEmpty() && v.length() <= 20 && Decimal.isDigits(v, 0)) {
                try {
                    return Long.parseUnsignedLong(v);
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
            return 0;
        }
        c.skip();
        return 0;
    }

    /** What an {@code exception.type} or {@code exception.message} attribute names, or null. */
    private static Outcome attribute(KeyValue kv, AnyValue.Span span) {
        String key = kv.key();
        if (!("exception.type".equals(key) || "exception.message".equals(key))) {
            return null;
        }
        String text = text(kv, span);
        return text == null ? null : Http.errorOutcome(text);
    }

    /** The attribute's string value, or null when it has none (a hint of an unexpected type names nothing). */
    private static String text(KeyValue kv, AnyValue.Span span) {
        if (kv.value() == null) {
            return null;
        }
        try {
            return kv.value().string(kv.key(), span);
        } catch (InputException e) {
            return null;
        }
    }
}

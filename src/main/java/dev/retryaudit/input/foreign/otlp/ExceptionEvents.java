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
        Event event = new Event();
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = ProtoNames.field(c);
            c.valueOfCheckedField();
            if (name.equals("name") && c.token() == JsonToken.VALUE_STRING) {
                event.name(c.optString());
            } else if (name.equals("timeUnixNano")) {
                event.time = eventNanos(c);
            } else if (name.equals("attributes") && c.token() == JsonToken.START_ARRAY) {
                while (c.next() != JsonToken.END_ARRAY) {
                    KeyValue kv = KeyValue.read(c);
                    if (kv != null) {
                        event.attribute(kv.key(), kv.value(), span);
                    }
                }
            } else {
                c.skip();
            }
        }
        return event.end(span);
    }

    /**
     * One event of a span as it is taken, in either encoding: its name, time and attributes, then what it
     * says of the span ({@link #end}).
     */
    static final class Event {
        private boolean exception;
        private boolean outbound;
        /** The event's time in unsigned nanoseconds, 0 when it has none. */
        long time;
        private Outcome named;
        private Outcome cause;

        void name(String event) {
            exception = "exception".equals(event);
            outbound = "Outbound message".equals(event);
        }

        /** Whether the value of attribute {@code key} would be taken: those that name how the request failed. */
        static boolean reads(String key) {
            return "exception.stacktrace".equals(key) || "exception.type".equals(key) || "exception.message".equals(key);
        }

        /** Takes one attribute of the event; either part may be null (absent). */
        void attribute(String key, AnyValue value, AnyValue.Span span) {
            if ("exception.stacktrace".equals(key)) {
                cause = cause != null ? cause : ExceptionCauses.outcome(text(key, value, span));
            } else {
                Outcome o = ExceptionEvents.attribute(key, value, span);
                named = named != null ? named : o;
            }
        }

        /** What the event says of how the span's request failed, or null; the span learns whether it sent. */
        Outcome end(SpanScratch span) {
            span.exceptionEvent |= exception;
            if (outbound && time != 0 && span.sendNanos == 0) {
                span.sendNanos = time;
            }
            return !exception ? null : named != null ? named : cause;
        }
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
    private static Outcome attribute(String key, AnyValue value, AnyValue.Span span) {
        if (!("exception.type".equals(key) || "exception.message".equals(key))) {
            return null;
        }
        String text = text(key, value, span);
        return text == null ? null : Http.errorOutcome(text);
    }

    /** The attribute's string value, or null when it has none (a hint of an unexpected type names nothing). */
    private static String text(String key, AnyValue value, AnyValue.Span span) {
        if (value == null) {
            return null;
        }
        try {
            return value.string(key, span);
        } catch (InputException e) {
            return null;
        }
    }
}

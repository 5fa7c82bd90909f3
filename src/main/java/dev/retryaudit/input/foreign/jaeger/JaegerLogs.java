package dev.retryaudit.input.foreign.jaeger;

import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.input.foreign.ExceptionCauses;
import dev.retryaudit.input.foreign.FailureHints;
import dev.retryaudit.input.foreign.Http;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Outcome;
import java.io.IOException;

/**
 * What a Jaeger span's logs say about how its request failed, as OTLP's exception events do: a log
 * whose {@code event} field is {@code exception} (OpenTelemetry's events) or {@code error}
 * (OpenTracing's) names a timeout, cancellation or connection failure in {@code exception.type},
 * {@code exception.message}, {@code error.kind} or {@code message}, else in a cause in
 * {@code exception.stacktrace} or {@code stack} ({@link ExceptionCauses}). Logs are a hint: one of an
 * unexpected shape is passed over.
 */
final class JaegerLogs {
    private JaegerLogs() {
    }

    /** The outcome the first failure log names ({@link Http#errorOutcome}), or null. */
    static Outcome outcome(JsonCursor c) throws IOException, InputException {
        return FailureHints.first(c, JaegerLogs::log);
    }

    private static Outcome log(JsonCursor c) throws IOException, InputException {
        if (c.token() != JsonToken.START_OBJECT) {
            c.skip();
            return null;
        }
        boolean failure = false;
        Outcome named = null;
        Outcome cause = null;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            c.valueOfCheckedField();
            if (!name.equals("fields") || c.token() != JsonToken.START_ARRAY) {
                c.skip();
                continue;
            }
            while (c.next() != JsonToken.END_ARRAY) {
                String[] field = field(c);
                if (field == null) {
                    continue;
                }
                switch (field[0]) {
                    case "event" -> failure |= field[1].equals("exception") || field[1].equals("error");
                    case "exception.type", "exception.message", "error.kind", "message" -> {
                        Outcome o = Http.errorOutcome(field[1]);
                        named = named != null ? named : o;
                    }
                    case "exception.stacktrace", "stack" -> cause = cause != null ? cause
                            : ExceptionCauses.outcome(field[1]);
                    default -> {
                        // not about the failure
                    }
                }
            }
        }
        return !failure ? null : named != null ? named : cause;
    }

    /** A field's key and string value, or null when it has no string value. */
    private static String[] field(JsonCursor c) throws IOException, InputException {
        if (c.token() != JsonToken.START_OBJECT) {
            c.skip();
            return null;
        }
        String key = null;
        String value = null;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            c.valueOfCheckedField();
            if (name.equals("key") && c.token() == JsonToken.VALUE_STRING) {
                key = c.optString();
            } else if (name.equals("value") && c.token() == JsonToken.VALUE_STRING) {
                value = c.optString();
            } else {
                c.skip();
            }
        }
        return key == null || value == null ? null : new String[] {key, value};
    }
}

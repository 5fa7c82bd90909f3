package dev.retryaudit.input.foreign.zipkin;

import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.input.foreign.ExceptionCauses;
import dev.retryaudit.input.foreign.FailureHints;
import dev.retryaudit.input.foreign.Http;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Outcome;
import java.io.IOException;
import java.util.Locale;

/**
 * What a Zipkin span's annotations say about how its request failed, as OTLP's exception events do.
 * OpenTelemetry's Zipkin exporter writes an event as an annotation {@code "NAME":{ATTRIBUTES}}, its
 * attribute values unescaped: an {@code "exception"} annotation names the failure in
 * {@code exception.type} or {@code exception.message}, else in a cause in
 * {@code exception.stacktrace} ({@link ExceptionCauses}). Another annotation names one only when it
 * says it is an error ({@code error: read timed out}): lifecycle annotations such as
 * {@code Connection established} are no failure. Annotations are a hint, used only for a span that
 * failed; one of an unexpected shape is passed over.
 */
final class ZipkinAnnotations {
    private static final String EXCEPTION = "\"exception\":";

    private ZipkinAnnotations() {
    }

    /** The outcome the first annotation that names one names, or null. */
    static Outcome outcome(JsonCursor c) throws IOException, InputException {
        return FailureHints.first(c, annotation -> {
            String value = value(annotation);
            return value == null ? null : named(value);
        });
    }

    /** An annotation's value, or null when it has no string value. */
    private static String value(JsonCursor c) throws IOException, InputException {
        if (c.token() != JsonToken.START_OBJECT) {
            c.skip();
            return null;
        }
        String value = null;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            c.valueOfCheckedField();
            if (name.equals("value") && c.token() == JsonToken.VALUE_STRING) {
                value = c.optString();
            } else {
                c.skip();
            }
        }
        return value;
    }

    /** What one annotation's value names, or null. */
    static Outcome named(String value) {
        if (value.startsWith(EXCEPTION)) {
            Outcome o = or(Http.errorOutcome(member(value, "exception.type")),
                    Http.errorOutcome(member(value, "exception.message")));
            return o != null ? o : ExceptionCauses.outcome(member(value, "exception.stacktrace"));
        }
        return value.toLowerCase(Locale.ROOT).startsWith("error") ? Http.errorOutcome(value) : null;
    }

    /**
     * The value of attribute {@code key} in an exception annotation, or "": up to the next attribute
     * ({@code ","exception.}) or the end of the object, since the exporter does not escape values.
     */
    private static String member(String value, String key) {
        String open = "\"" + key + "\":\"";
        int from = value.indexOf(open);
        if (from < 0) {
            return "";
        }
        from += open.length();
        int next = value.indexOf("\",\"exception.", from);
        int to = next >= 0 ? next : value.endsWith("\"}") ? value.length() - 2 : value.length();
        return value.substring(from, Math.max(from, to));
    }

    private static Outcome or(Outcome a, Outcome b) {
        return a != null ? a : b;
    }
}

package dev.retryaudit.input.foreign.jaeger;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.input.foreign.AnyValue;
import dev.retryaudit.json.Decimal;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.model.internal.InputException;
import java.io.IOException;
import java.util.function.UnaryOperator;

/**
 * One typed Jaeger tag value ({@code {"key", "type", "value"}}), captured where it stands and then
 * checked against its {@code type}: {@code string}, {@code bool}, {@code int64} (an integer or a
 * decimal string, as Jaeger writes integers beyond JavaScript's range), {@code float64} or
 * {@code binary} (base64). A value that does not match its type becomes an invalid value, refused
 * only where the audit uses the tag.
 *
 * @param json the JSON token of the value
 */
record JaegerTag(JsonToken json, String text, long number, boolean bigInteger, String source, long line,
        long column) {
    private static final String TYPES = "string, bool, int64, float64, binary";

    /** Captures the value at the cursor and moves past it. */
    static JaegerTag read(JsonCursor c) throws IOException, InputException {
        JsonToken t = c.token();
        String text = t == JsonToken.VALUE_STRING ? c.optString() : null;
        boolean big = t == JsonToken.VALUE_NUMBER_INT && c.parser().getNumberType() == JsonParser.NumberType.BIG_INTEGER;
        long number = t == JsonToken.VALUE_NUMBER_INT && !big ? c.parser().getLongValue() : 0;
        JaegerTag tag = new JaegerTag(t, text, number, big, c.source(), c.line(), c.column());
        c.skip();
        return tag;
    }

    /** Whether the tag says true: a bool true, or the string "true". */
    boolean isTrue() {
        return json == JsonToken.VALUE_TRUE || "true".equals(text);
    }

    /**
     * The value as an attribute value under {@code type} (null: by its JSON type), standing at
     * {@code place} in its span, with a string's text as {@code textOf} reads it.
     */
    AnyValue value(String type, String place, UnaryOperator<String> textOf) {
        if (type == null) {
            type = switch (json) {
                case VALUE_STRING -> "string";
                case VALUE_TRUE, VALUE_FALSE -> "bool";
                case VALUE_NUMBER_INT -> "int64";
                case VALUE_NUMBER_FLOAT -> "float64";
                default -> "";
            };
        }
        return switch (type) {
            case "string" -> json == JsonToken.VALUE_STRING ? at(AnyValue.Kind.TEXT, textOf.apply(text), 0, place)
                    : invalid("a string tag needs a string value", place);
            case "bool" -> json == JsonToken.VALUE_TRUE || json == JsonToken.VALUE_FALSE
                    || "true".equals(text) || "false".equals(text)
                    ? at(AnyValue.Kind.BOOL, null, isTrue() ? 1 : 0, place)
                    : invalid("a bool tag needs true or false", place);
            case "int64" -> int64(place);
            case "float64" -> json == JsonToken.VALUE_NUMBER_INT || json == JsonToken.VALUE_NUMBER_FLOAT
                    || json == JsonToken.VALUE_STRING
                    ? at(AnyValue.Kind.DOUBLE, null, 0, place) : invalid("a float64 tag needs a number", place);
            case "binary" -> json == JsonToken.VALUE_STRING ? at(AnyValue.Kind.BYTES, null, 0, place)
                    : invalid("a binary tag needs a base64 string", place);
            case "" -> json == JsonToken.VALUE_NULL ? at(AnyValue.Kind.EMPTY, null, 0, place)
                    : invalid("a tag value is a string, a boolean or a number", place);
            default -> invalid("unknown tag type: expected one of " + TYPES, place);
        };
    }

    private AnyValue int64(String place) {
        if (json == JsonToken.VALUE_NUMBER_INT) {
            return bigInteger ? invalid("int64 out of range: an int64 is a 64-bit integer", place)
                    : at(AnyValue.Kind.INT, null, number, place);
        }
        if (json == JsonToken.VALUE_STRING) {
            int digits = text.startsWith("-") ? text.length() - 1 : text.length();
            if (digits >= 1 && digits <= 19 && Decimal.isDigits(text, text.length() - digits)) {
                try {
                    return at(AnyValue.Kind.INT, null, Long.parseLong(text), place);
                } catch (NumberFormatException e) {
                    return invalid("int64 out of range: an int64 is a 64-bit integer", place);
                }
            }
        }
        return invalid("an int64 tag needs an integer or a decimal string", place);
    }

    private AnyValue at(AnyValue.Kind kind, String s, long n, String place) {
        return AnyValue.tag(kind, s, n, source, line, column, place);
    }

    private AnyValue invalid(String why, String place) {
        return at(AnyValue.Kind.INVALID, why, 0, place);
    }
}

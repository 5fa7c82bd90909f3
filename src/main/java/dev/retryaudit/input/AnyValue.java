package dev.retryaudit.input;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.model.Wire;
import java.io.IOException;

/**
 * An OTLP attribute value ({@code AnyValue}) captured where it stands in the input. It is read
 * leniently, because an attribute's key may follow its value and attributes the audit does not use
 * are never judged; the typed accessors then check it strictly against what its key needs, with
 * errors at the value's place.
 */
final class AnyValue {
    /** Which member of the AnyValue was set. */
    enum Kind {
        EMPTY("an empty value"),
        STRING("a stringValue"),
        INT("an intValue"),
        BOOL("a boolValue"),
        DOUBLE("a doubleValue"),
        ARRAY("an arrayValue"),
        KVLIST("a kvlistValue"),
        BYTES("a bytesValue"),
        INVALID("an invalid value");

        final String description;

        Kind(String description) {
            this.description = description;
        }
    }

    private final Kind kind;
    private final String text;
    private final long number;
    private final AnyValue first;
    private final String source;
    private final long line;
    private final long column;
    private final String path;

    private AnyValue(Kind kind, String text, long number, AnyValue first, JsonCursor at) {
        this(kind, text, number, first, at.source(), at.line(), at.column(), at.path());
    }

    private AnyValue(Kind kind, String text, long number, AnyValue first, String source, long line, long column,
            String path) {
        this.kind = kind;
        this.text = text;
        this.number = number;
        this.first = first;
        this.source = source;
        this.line = line;
        this.column = column;
        this.path = path;
    }

    /** Captures the AnyValue at the cursor (its start token) and moves past it; never fails on its shape. */
    static AnyValue read(JsonCursor c) throws IOException, InputException {
        if (c.token() != JsonToken.START_OBJECT) {
            AnyValue bad = invalid(c, "expected an AnyValue object such as {\"stringValue\": \"...\"}, found "
                    + JsonCursor.describe(c.token()));
            c.skip();
            return bad;
        }
        AnyValue value = new AnyValue(Kind.EMPTY, null, 0, null, c);
        boolean set = false;
        while (c.next() == JsonToken.FIELD_NAME) {
            String member = c.parser().currentName();
            c.value();
            if (c.isNull()) {
                continue;
            }
            AnyValue v = member(member, c);
            if (v == null) {
                continue;
            }
            if (set && value.kind != Kind.INVALID) {
                value = invalid(c, "an AnyValue holds exactly one value, this one holds several");
            } else if (!set) {
                value = v;
            }
            set = true;
        }
        return value;
    }

    private static AnyValue member(String member, JsonCursor c) throws IOException, InputException {
        JsonToken t = c.token();
        return switch (member) {
            case "stringValue" -> t == JsonToken.VALUE_STRING
                    ? new AnyValue(Kind.STRING, c.optString(), 0, null, c)
                    : wrongType(c, "stringValue", "a string");
            case "intValue" -> intValue(c);
            case "boolValue" -> t == JsonToken.VALUE_TRUE || t == JsonToken.VALUE_FALSE
                    ? new AnyValue(Kind.BOOL, null, t == JsonToken.VALUE_TRUE ? 1 : 0, null, c)
                    : wrongType(c, "boolValue", "true or false");
            case "doubleValue" -> t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT
                    || t == JsonToken.VALUE_STRING
                    ? new AnyValue(Kind.DOUBLE, null, 0, null, c)
                    : wrongType(c, "doubleValue", "a number");
            case "arrayValue" -> arrayValue(c);
            case "kvlistValue" -> skipped(c, Kind.KVLIST);
            case "bytesValue" -> skipped(c, Kind.BYTES);
            default -> {
                c.skip();
                yield null;
            }
        };
    }

    /** A 64-bit integer, as a decimal string or a JSON integer, never through a double. */
    private static AnyValue intValue(JsonCursor c) throws IOException, InputException {
        JsonToken t = c.token();
        if (t == JsonToken.VALUE_NUMBER_INT) {
            if (c.parser().getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                return invalid(c, "intValue out of range: an intValue is a 64-bit integer");
            }
            return new AnyValue(Kind.INT, null, c.parser().getLongValue(), null, c);
        }
        if (t != JsonToken.VALUE_STRING) {
            return wrongType(c, "intValue", "an integer or a decimal string");
        }
        String s = c.optString();
        if (!s.matches("-?[0-9]{1,19}")) {
            return invalid(c, "intValue must be a decimal integer");
        }
        try {
            return new AnyValue(Kind.INT, null, Long.parseLong(s), null, c);
        } catch (NumberFormatException e) {
            return invalid(c, "intValue out of range: an intValue is a 64-bit integer");
        }
    }

    /** An array, of which only the first element is kept (a header's first value). */
    private static AnyValue arrayValue(JsonCursor c) throws IOException, InputException {
        if (c.token() != JsonToken.START_OBJECT) {
            return wrongType(c, "arrayValue", "an object {\"values\": [...]}");
        }
        AnyValue array = new AnyValue(Kind.ARRAY, null, 0, null, c);
        AnyValue firstElement = null;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            c.value();
            if (!name.equals("values") || c.isNull()) {
                c.skip();
                continue;
            }
            if (c.token() != JsonToken.START_ARRAY) {
                return skipRest(c, wrongType(c, "values", "an array"));
            }
            while (c.next() != JsonToken.END_ARRAY) {
                if (firstElement == null) {
                    firstElement = read(c);
                } else {
                    c.skip();
                }
            }
        }
        return firstElement == null ? array
                : new AnyValue(Kind.ARRAY, null, 0, firstElement, array.source, array.line, array.column, array.path);
    }

    private static AnyValue skipRest(JsonCursor c, AnyValue value) throws IOException {
        while (c.next() == JsonToken.FIELD_NAME) {
            c.value();
            c.skip();
        }
        return value;
    }

    private static AnyValue skipped(JsonCursor c, Kind kind) throws IOException {
        AnyValue v = new AnyValue(kind, null, 0, null, c);
        c.skip();
        return v;
    }

    private static AnyValue wrongType(JsonCursor c, String member, String expected) throws IOException {
        AnyValue v = invalid(c, member + " must be " + expected + ", found " + JsonCursor.describe(c.token()));
        c.skip();
        return v;
    }

    private static AnyValue invalid(JsonCursor c, String why) {
        return new AnyValue(Kind.INVALID, why, 0, null, c);
    }

    /** The value of attribute {@code key} as a string; null when empty. */
    String string(String key) throws InputException {
        return switch (kind) {
            case EMPTY -> null;
            case STRING -> text;
            default -> throw mismatch(key, Kind.STRING.description);
        };
    }

    /** The value of attribute {@code key} as an integer in [min, max]; null when empty. */
    Long integer(String key, long min, long max) throws InputException {
        if (kind == Kind.EMPTY) {
            return null;
        }
        if (kind != Kind.INT) {
            throw mismatch(key, Kind.INT.description);
        }
        if (number < min || number > max) {
            throw error("attribute " + key + ": out of range: must be between " + min + " and " + max);
        }
        return number;
    }

    /** One of an enum's lower-case wire names; null when empty. */
    <E extends Enum<E>> E enumValue(String key, Class<E> type) throws InputException {
        String s = string(key);
        if (s == null) {
            return null;
        }
        E e = Wire.parse(type, s, '_');
        if (e == null) {
            throw error("attribute " + key + ": expected one of " + String.join(", ", Wire.names(type, '_')));
        }
        return e;
    }

    /**
     * The value of a recorded HTTP header: semantic conventions make it an array of strings, of which
     * the first counts; a plain string (and, for numeric headers, an integer) is accepted too.
     */
    String header(String key, boolean numeric) throws InputException {
        return switch (kind) {
            case EMPTY -> null;
            case STRING -> text;
            case INT -> {
                if (!numeric) {
                    throw mismatch(key, "a string array");
                }
                yield Long.toString(number);
            }
            case ARRAY -> first == null ? null : first.header(key, numeric);
            default -> throw mismatch(key, "a string array");
        };
    }

    private InputException mismatch(String key, String expected) {
        if (kind == Kind.INVALID) {
            return error("attribute " + key + ": " + text);
        }
        return error("attribute " + key + ": expected " + expected + ", found " + kind.description);
    }

    private InputException error(String detail) {
        return InputException.rejected(source, line, column, path, detail);
    }
}

package dev.retryaudit.input.foreign;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.json.Decimal;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.json.JsonPointers;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.text.Wire;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * An OTLP attribute value ({@code AnyValue}) captured where it stands in the input. It is read
 * leniently, because an attribute's key may follow its value and attributes the audit does not use
 * are never judged; the typed accessors then check it strictly against what its key needs, with
 * errors at the value's place.
 */
public final class AnyValue {
    /** Which member of the AnyValue was set. */
    public enum Kind {
        EMPTY("an empty value"),
        STRING("a stringValue"),
        INT("an intValue"),
        BOOL("a boolValue"),
        DOUBLE("a doubleValue"),
        ARRAY("an arrayValue"),
        KVLIST("a kvlistValue"),
        BYTES("a bytesValue"),
        /** A Zipkin tag, always a string, whatever the value it stands for. */
        TEXT("a tag value"),
        INVALID("an invalid value");

        final String description;

        Kind(String description) {
            this.description = description;
        }
    }

    /** Where the span of an attribute stands, asked only when there is an error to place. */
    public interface Span {
        /** The span's JSON Pointer within its export. */
        String pointer();
    }

    private static final String[] ELEMENTS = new String[8];

    static {
        for (int i = 0; i < ELEMENTS.length; i++) {
            ELEMENTS[i] = "value.arrayValue.values[" + i + "]";
        }
    }

    private final Kind kind;
    private final String text;
    private final long number;
    private final AnyValue first;
    private final String source;
    private final long line;
    private final long column;
    /** Where the value stands within its attribute ({@code value.arrayValue.values[0]}), and in it, if anywhere. */
    private final String within;
    private final String member;
    /** For a tag of another format, its path within the span ({@code .tags[2].value}); null for an OTLP attribute. */
    private String place;
    private int attribute;

    private AnyValue(Kind kind, String text, long number, AnyValue first, JsonCursor at, String within, String member) {
        this(kind, text, number, first, at.source(), at.line(), at.column(), within, member);
    }

    private AnyValue(Kind kind, String text, long number, AnyValue first, String source, long line, long column,
            String within, String member) {
        this.kind = kind;
        this.text = text;
        this.number = number;
        this.first = first;
        this.source = source;
        this.line = line;
        this.column = column;
        this.within = within;
        this.member = member;
    }

    /**
     * A tag of another format at the cursor, standing at {@code place} within its span: a Zipkin
     * string ({@link Kind#TEXT}), or a typed Jaeger value ({@code text} for a string, {@code number}
     * for an integer or a boolean); {@link Kind#INVALID} with the reason as {@code text}.
     */
    public static AnyValue tag(Kind kind, String text, long number, JsonCursor at, String place) {
        return tag(kind, text, number, at.source(), at.line(), at.column(), place);
    }

    /** A tag of another format that stood at {@code line} and {@code column} (see {@link #tag(Kind, String, long, JsonCursor, String)}). */
    public static AnyValue tag(Kind kind, String text, long number, String source, long line, long column, String place) {
        AnyValue v = new AnyValue(kind, text, number, null, source, line, column, "", null);
        v.place = place;
        return v;
    }

    /**
     * Captures the AnyValue of attribute number {@code attribute} of a span at the cursor (its start
     * token) and moves past it; never fails on its shape.
     */
    public static AnyValue read(JsonCursor c, int attribute) throws IOException, InputException {
        return read(c, "value").ofAttribute(attribute);
    }

    private static AnyValue read(JsonCursor c, String within) throws IOException, InputException {
        if (c.isNull()) {
            return new AnyValue(Kind.EMPTY, null, 0, null, c, within, null);
        }
        if (c.token() != JsonToken.START_OBJECT) {
            AnyValue bad = invalid(c, within, null, "expected an AnyValue object such as {\"stringValue\": \"...\"}, "
                    + "found " + JsonCursor.describe(c.token()));
            c.skip();
            return bad;
        }
        long line = c.line();
        long column = c.column();
        AnyValue value = null;
        while (c.next() == JsonToken.FIELD_NAME) {
            String member = ProtoNames.field(c);
            c.valueOfCheckedField();
            if (c.isNull()) {
                continue;
            }
            AnyValue v = member(member, c, within);
            if (v == null) {
                continue;
            }
            if (value != null && value.kind != Kind.INVALID) {
                value = invalid(c, within, member, "an AnyValue holds exactly one value, this one holds several");
            } else if (value == null) {
                value = v;
            }
        }
        // An object with no value set is an empty value, placed where the object starts.
        return value != null ? value : new AnyValue(Kind.EMPTY, null, 0, null, c.source(), line, column, within, null);
    }

    private static AnyValue member(String member, JsonCursor c, String within) throws IOException, InputException {
        JsonToken t = c.token();
        return switch (member) {
            case "stringValue" -> t == JsonToken.VALUE_STRING
                    ? new AnyValue(Kind.STRING, c.optSharedString(), 0, null, c, within, member)
                    : wrongType(c, within, member, "a string");
            case "intValue" -> intValue(c, within);
            case "boolValue" -> t == JsonToken.VALUE_TRUE || t == JsonToken.VALUE_FALSE
                    ? new AnyValue(Kind.BOOL, null, t == JsonToken.VALUE_TRUE ? 1 : 0, null, c, within, member)
                    : wrongType(c, within, member, "true or false");
            case "doubleValue" -> t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT
                    || t == JsonToken.VALUE_STRING
                    ? new AnyValue(Kind.DOUBLE, null, 0, null, c, within, member)
                    : wrongType(c, within, member, "a number");
            case "arrayValue" -> arrayValue(c, within);
            case "kvlistValue" -> skipped(c, Kind.KVLIST, within, member);
            case "bytesValue" -> skipped(c, Kind.BYTES, within, member);
            default -> {
                c.skip();
                yield null;
            }
        };
    }

    /** A 64-bit integer, as a decimal string or a JSON integer, never through a double. */
    private static AnyValue intValue(JsonCursor c, String within) throws IOException, InputException {
        JsonToken t = c.token();
        String member = "intValue";
        if (t == JsonToken.VALUE_NUMBER_INT) {
            if (c.parser().getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                return invalid(c, within, member, "intValue out of range: an intValue is a 64-bit integer");
            }
            return new AnyValue(Kind.INT, null, c.parser().getLongValue(), null, c, within, member);
        }
        if (t != JsonToken.VALUE_STRING) {
            return wrongType(c, within, member, "an integer or a decimal string");
        }
        String s = c.optString();
        int digits = s.startsWith("-") ? s.length() - 1 : s.length();
        if (digits < 1 || digits > 19 || !Decimal.isDigits(s, s.length() - digits)) {
            return invalid(c, within, member, "intValue must be a decimal integer");
        }
        try {
            return new AnyValue(Kind.INT, null, Long.parseLong(s), null, c, within, member);
        } catch (NumberFormatException e) {
            return invalid(c, within, member, "intValue out of range: an intValue is a 64-bit integer");
        }
    }

    /**
     * An array, of which the first element is kept (a header's first value) and, when every element
     * is a string, all of them joined with ", " as HTTP joins the lines of one field (some
     * instrumentations split a header value at its commas).
     */
    private static AnyValue arrayValue(JsonCursor c, String within) throws IOException, InputException {
        if (c.token() != JsonToken.START_OBJECT) {
            return wrongType(c, within, "arrayValue", "an object {\"values\": [...]}");
        }
        String source = c.source();
        long line = c.line();
        long column = c.column();
        List<AnyValue> elements = List.of();
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = ProtoNames.field(c);
            c.valueOfCheckedField();
            if (!name.equals("values") || c.isNull()) {
                c.skip();
                continue;
            }
            if (c.token() != JsonToken.START_ARRAY) {
                return skipRest(c, wrongType(c, within + ".arrayValue", "values", "an array"));
            }
            elements = new ArrayList<>(2);
            for (int i = 0; c.next() != JsonToken.END_ARRAY; i++) {
                elements.add(read(c, elementWithin(within, i)));
            }
        }
        return array(elements, source, line, column, within);
    }

    /**
     * An {@code arrayValue} of {@code elements} that stood at {@code line} and {@code column}: its first
     * element kept, and, when every element is a string, their text joined with ", ".
     */
    private static AnyValue array(List<AnyValue> elements, String source, long line, long column, String within) {
        AnyValue firstElement = elements.isEmpty() ? null : elements.get(0);
        StringBuilder joined = null;
        boolean strings = true;
        for (int i = 0; i < elements.size(); i++) {
            AnyValue element = elements.get(i);
            strings &= element.kind == Kind.STRING;
            if (strings && i > 0) {
                joined = (joined != null ? joined : new StringBuilder(firstElement.text.strip()))
                        .append(", ").append(element.text.strip());
            }
        }
        String text = !strings || firstElement == null ? null
                : joined != null ? joined.toString() : firstElement.text.strip();
        return new AnyValue(Kind.ARRAY, text, 0, firstElement, source, line, column, within, "arrayValue");
    }

    /**
     * A value decoded from OTLP protobuf, placed at {@code line} and {@code column} of {@code source}, standing
     * at {@code within} of its attribute ({@code value}, or an element: {@link #elementWithin}) with the member
     * OTLP/JSON gives it ({@code .value.stringValue}): {@code text} for a string, {@code number} for an integer
     * or a boolean (1 for true), nothing for the kinds the audit never reads.
     */
    public static AnyValue decoded(Kind kind, String text, long number, String source, long line, long column,
            String within) {
        return new AnyValue(kind, text, number, null, source, line, column, within, member(kind));
    }

    /** A decoded {@code arrayValue} of {@code elements}, placed as {@link #decoded} says. */
    public static AnyValue decodedArray(List<AnyValue> elements, String source, long line, long column, String within) {
        return array(elements, source, line, column, within);
    }

    /** This value as that of attribute number {@code index} of its span, for the path of its errors. */
    public AnyValue ofAttribute(int index) {
        attribute = index;
        return this;
    }

    /** The member of an OTLP/JSON AnyValue that holds a value of {@code kind}; null for an empty value. */
    private static String member(Kind kind) {
        return switch (kind) {
            case STRING -> "stringValue";
            case INT -> "intValue";
            case BOOL -> "boolValue";
            case DOUBLE -> "doubleValue";
            case ARRAY -> "arrayValue";
            case KVLIST -> "kvlistValue";
            case BYTES -> "bytesValue";
            case EMPTY, TEXT, INVALID -> null;
        };
    }

    /** Where element {@code i} of an array value stands, made once for the first elements of an attribute's value. */
    public static String elementWithin(String within, int i) {
        return within.equals("value") && i < ELEMENTS.length ? ELEMENTS[i] : within + ".arrayValue.values[" + i + "]";
    }

    private static AnyValue skipRest(JsonCursor c, AnyValue value) throws IOException {
        while (c.next() == JsonToken.FIELD_NAME) {
            c.valueOfCheckedField();
            c.skip();
        }
        return value;
    }

    private static AnyValue skipped(JsonCursor c, Kind kind, String within, String member) throws IOException {
        AnyValue v = new AnyValue(kind, null, 0, null, c, within, member);
        c.skip();
        return v;
    }

    private static AnyValue wrongType(JsonCursor c, String within, String member, String expected) throws IOException {
        String found = JsonCursor.describe(c.token());
        AnyValue v = invalid(c, within, member, member + " must be " + expected + ", found " + found);
        c.skip();
        return v;
    }

    private static AnyValue invalid(JsonCursor c, String within, String member, String why) {
        return new AnyValue(Kind.INVALID, why, 0, null, c, within, member);
    }

    // The accessors check the value against what attribute {@code key} needs; {@code span} places errors.

    /** The value of attribute {@code key} as a string; null when empty. */
    public String string(String key, Span span) throws InputException {
        return switch (kind) {
            case EMPTY -> null;
            case STRING, TEXT -> text;
            default -> throw mismatch(key, Kind.STRING.description, span);
        };
    }

    /** The value of attribute {@code key} as an integer in [min, max]; null when empty. */
    Long integer(String key, long min, long max, Span span) throws InputException {
        if (kind == Kind.EMPTY) {
            return null;
        }
        if (kind == Kind.TEXT) {
            return textInteger(key, min, max, span);
        }
        if (kind != Kind.INT) {
            throw mismatch(key, Kind.INT.description, span);
        }
        if (number < min || number > max) {
            throw error(noun() + key + ": out of range: must be between " + min + " and " + max, span);
        }
        return number;
    }

    /** A tag's text as an integer in [min, max]. */
    private Long textInteger(String key, long min, long max, Span span) throws InputException {
        int digits = text.startsWith("-") ? text.length() - 1 : text.length();
        if (digits < 1 || digits > 19 || !Decimal.isDigits(text, text.length() - digits)) {
            throw error(noun() + key + ": expected a decimal integer", span);
        }
        long n;
        try {
            n = Long.parseLong(text);
        } catch (NumberFormatException e) {
            n = text.startsWith("-") ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        if (n < min || n > max) {
            throw error(noun() + key + ": out of range: must be between " + min + " and " + max, span);
        }
        return n;
    }

    /** One of an enum's lower-case wire names; null when empty. */
    <E extends Enum<E>> E enumValue(String key, Class<E> type, Span span) throws InputException {
        String s = string(key, span);
        if (s == null) {
            return null;
        }
        E e = Wire.parse(type, s, '_');
        if (e == null) {
            throw error(noun() + key + ": expected one of " + String.join(", ", Wire.names(type, '_')), span);
        }
        return e;
    }

    /**
     * The value of a recorded HTTP header: semantic conventions make it an array of strings, of which
     * the first counts; a plain string (and, for numeric headers, an integer) is accepted too.
     */
    String header(String key, boolean numeric, Span span) throws InputException {
        return switch (kind) {
            case EMPTY -> null;
            case STRING, TEXT -> text;
            case INT -> {
                if (!numeric) {
                    throw mismatch(key, "a string array", span);
                }
                yield Long.toString(number);
            }
            case ARRAY -> first == null ? null : first.ofAttribute(attribute).header(key, numeric, span);
            default -> throw mismatch(key, "a string array", span);
        };
    }

    /**
     * As {@link #header}, but an array of strings is the field's whole value, its elements joined with
     * ", ": for fields whose values hold commas (an HTTP-date), which some instrumentations split.
     */
    String fieldValue(String key, boolean numeric, Span span) throws InputException {
        return kind == Kind.ARRAY && text != null ? text : header(key, numeric, span);
    }

    /** The value of attribute {@code key} as a boolean (or a tag's text {@code true}/{@code false}); null when empty. */
    Boolean bool(String key, Span span) throws InputException {
        return switch (kind) {
            case EMPTY -> null;
            case BOOL -> number == 1;
            case TEXT -> switch (text) {
                case "true" -> Boolean.TRUE;
                case "false" -> Boolean.FALSE;
                default -> throw error(noun() + key + ": expected true or false", span);
            };
            default -> throw mismatch(key, Kind.BOOL.description, span);
        };
    }

    /** The value of attribute {@code key} as text: a string, or an integer in decimal; null when empty. */
    public String text(String key, Span span) throws InputException {
        return kind == Kind.INT ? Long.toString(number) : string(key, span);
    }

    private InputException mismatch(String key, String expected, Span span) {
        if (kind == Kind.INVALID) {
            return error(noun() + key + ": " + text, span);
        }
        return error(noun() + key + ": expected " + expected + ", found " + kind.description, span);
    }

    /** What the value's key names in errors: an OTLP attribute, or another format's tag. */
    private String noun() {
        return place == null ? "attribute " : "tag ";
    }

    /** An error at this value, in {@code span}. */
    public InputException error(String detail, Span span) {
        String path = JsonPointers.toPath(span.pointer()) + (place != null ? place
                : ".attributes[" + attribute + "]." + within + (member == null ? "" : "." + member));
        return InputException.rejected(source, line, column, path, detail);
    }
}

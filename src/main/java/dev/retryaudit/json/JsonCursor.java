package dev.retryaudit.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.core.base.ParserBase;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.json.UTF8StreamJsonParser;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Limit;
import dev.retryaudit.model.Limits;
import dev.retryaudit.text.Wire;
import dev.retryaudit.text.Escaping;
import dev.retryaudit.text.Suggestions;
import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A strict reader's view of a {@link JsonParser}: typed reads of the current value that refuse
 * wrong types, out-of-range numbers and over-long strings, and errors that carry the source,
 * line, column and JSON path. Optional reads return null for JSON null (the same as absent).
 */
public final class JsonCursor {
    private static final JsonFactory COPIER = JsonFactory.builder()
            .streamWriteConstraints(StreamWriteConstraints.builder().maxNestingDepth(Limits.MAX_DEPTH).build())
            .build();

    private final JsonParser p;
    private final String source;
    private final Limits limits;
    private long nameLine = 1;
    private long nameColumn = 1;
    /** Values of a few kinds that come again and again (enum values, tools, retry reasons), made once each. */
    private final StringPool shared;
    private final CharsView view = new CharsView();

    public JsonCursor(JsonParser p, String source, Limits limits) {
        this(p, source, limits, new StringPool(1 << 16));
    }

    /** A cursor that shares repeated values ({@link #optSharedString()}) through {@code shared}. */
    public JsonCursor(JsonParser p, String source, Limits limits, StringPool shared) {
        this.p = p;
        this.source = source;
        this.limits = limits;
        this.shared = shared;
    }

    public JsonParser parser() {
        return p;
    }

    public String source() {
        return source;
    }

    public Limits limits() {
        return limits;
    }

    public JsonToken next() throws IOException {
        return p.nextToken();
    }

    public JsonToken token() {
        return p.currentToken();
    }

    /** The line of the current token (1-based). */
    public long line() {
        return fastPlace() ? Math.max(1, ((ParserBase) p).getTokenLineNr()) : line(p.currentTokenLocation());
    }

    /** The column of the current token (1-based). */
    public long column() {
        if (fastPlace()) {
            // The UTF-8 parser's location gives the column it counts, which its getter gives one more of.
            int column = ((ParserBase) p).getTokenColumnNr();
            return Math.max(1, column < 0 ? column : column - 1);
        }
        return column(p.currentTokenLocation());
    }

    /** Where the current token starts, for {@link #line(JsonLocation)} and {@link #column(JsonLocation)}: both from one call. */
    public JsonLocation tokenLocation() {
        return p.currentTokenLocation();
    }

    /** The line (1-based) of a place the parser gave. */
    public static long line(JsonLocation at) {
        return Math.max(1, at.getLineNr());
    }

    /** The column (1-based) of a place the parser gave. */
    public static long column(JsonLocation at) {
        return Math.max(1, at.getColumnNr());
    }

    /**
     * Whether the current token's place can be read without making a {@link JsonLocation} (one a call
     * otherwise): a value's place in the UTF-8 parser, which every reader uses; a field name keeps its
     * own place, read through the location.
     */
    private boolean fastPlace() {
        return p.getClass() == UTF8StreamJsonParser.class && p.currentToken() != JsonToken.FIELD_NAME;
    }

    /** The JSON path of the current token, {@code $.operations[3].attempts[1].commit_state}; within a JSON Lines record, relative to the record. */
    public String path() {
        return path(p.getParsingContext());
    }

    /** The JSON path of a parsing context. */
    public static String path(JsonStreamContext ctx) {
        List<JsonStreamContext> chain = new ArrayList<>();
        for (JsonStreamContext c = ctx; c != null && !c.inRoot(); c = c.getParent()) {
            chain.add(0, c);
        }
        StringBuilder b = new StringBuilder("$");
        for (JsonStreamContext c : chain) {
            if (c.inArray()) {
                if (c.getEntryCount() > 0) {
                    b.append('[').append(c.getCurrentIndex()).append(']');
                }
            } else if (c.getCurrentName() != null) {
                String name = Escaping.shortened(c.getCurrentName(), 80);
                if (name.matches("[A-Za-z_$][A-Za-z0-9_$]*")) {
                    b.append('.').append(name);
                } else {
                    b.append("['").append(name.replace("'", "\\'")).append("']");
                }
            }
        }
        return b.toString();
    }

    /** An error at the current token, naming its path. */
    public InputException error(String detail) {
        return InputException.rejected(source, line(), column(), path(), detail);
    }

    /** An error at the current token, naming a given path. */
    public InputException error(String path, String detail) {
        return InputException.rejected(source, line(), column(), path, detail);
    }

    /** Requires the current token to start an object. */
    public void expectObject(String what) throws InputException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw error("expected " + what + " (a JSON object), found " + describe(p.currentToken()));
        }
    }

    /** Requires the current token to start an array. */
    public void expectArray(String what) throws InputException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            throw error("expected " + what + " (a JSON array), found " + describe(p.currentToken()));
        }
    }

    /**
     * An unknown field of one of our strict formats, at its name (the current token, or the name
     * that {@link #value()} last moved past), with the closest known name as a hint.
     */
    public InputException unknownField(String name, Collection<String> known) {
        String hint = Suggestions.closest(name, known).map(k -> " (did you mean " + k + "?)").orElse("");
        if (p.currentToken() == JsonToken.FIELD_NAME) {
            return error("unknown field" + hint);
        }
        return InputException.rejected(source, nameLine, nameColumn, path(), "unknown field" + hint);
    }

    /**
     * Moves from a field name already checked by a {@link FieldMask} to its value. Cheaper than
     * {@link #value()}: the name's place is not kept, as no unknown-field error can follow.
     */
    public JsonToken valueOfCheckedField() throws IOException {
        return p.nextToken();
    }

    /** Moves from a field name to its value, remembering where the name stood. */
    public JsonToken value() throws IOException {
        JsonLocation name = p.currentTokenLocation();
        nameLine = Math.max(1, name.getLineNr());
        nameColumn = Math.max(1, name.getColumnNr());
        return p.nextToken();
    }

    public boolean isNull() {
        return p.currentToken() == JsonToken.VALUE_NULL;
    }

    /** A string value, or null for JSON null. */
    public String optString() throws IOException, InputException {
        return isString() ? checkedText() : null;
    }

    /** Whether the current value is a string: false for JSON null, an error for any other. */
    private boolean isString() throws InputException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NULL) {
            return false;
        }
        if (t != JsonToken.VALUE_STRING) {
            throw error("expected a string, found " + describe(t));
        }
        return true;
    }

    /**
     * A string value, or null for JSON null, shared with equal values read before: for values of a few
     * kinds, which then cost no new string each.
     */
    public String optSharedString() throws IOException, InputException {
        if (!isString()) {
            return null;
        }
        int n = p.getTextLength();
        if (n > limits.stringLength()) {
            return checkedText();
        }
        return shared.share(p.getTextCharacters(), p.getTextOffset(), n);
    }

    /** A string value that must be present and not null. */
    public String string() throws IOException, InputException {
        String s = optString();
        if (s == null) {
            throw error("must not be null");
        }
        return s;
    }

    /** An integer value in [min, max], or null for JSON null. */
    public Long optLong(long min, long max) throws IOException, InputException {
        return isNull() ? null : checkedLong(min, max);
    }

    /** An integer value in [min, max] that fits an int, or null for JSON null. */
    public Integer optInt(int min, int max) throws IOException, InputException {
        return isNull() ? null : (int) checkedLong(min, max);
    }

    /** An integer value in [min, max] that fits an int, or {@code ifNull} for JSON null: nothing boxed. */
    public int intOr(int min, int max, int ifNull) throws IOException, InputException {
        return isNull() ? ifNull : (int) checkedLong(min, max);
    }

    /** The current value, which must be an integer in [min, max]. */
    private long checkedLong(long min, long max) throws IOException, InputException {
        JsonToken t = p.currentToken();
        if (t != JsonToken.VALUE_NUMBER_INT) {
            throw error("expected an integer, found " + describe(t));
        }
        if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            throw error("number out of range: must be between " + min + " and " + max);
        }
        long v = p.getLongValue();
        if (v < min || v > max) {
            throw error("number out of range: must be between " + min + " and " + max);
        }
        return v;
    }

    /** A number (integer or fraction) at least {@code min}, or NaN for JSON null. */
    public double optNumber(double min) throws IOException, InputException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NULL) {
            return Double.NaN;
        }
        if (t != JsonToken.VALUE_NUMBER_INT && t != JsonToken.VALUE_NUMBER_FLOAT) {
            throw error("expected a number, found " + describe(t));
        }
        double v = p.getDoubleValue();
        if (Double.isNaN(v) || Double.isInfinite(v) || v < min || v > 1e15) {
            throw error("number out of range: must be between " + (long) min + " and 1e15");
        }
        return v;
    }

    /** A boolean value, or null for JSON null. */
    public Boolean optBoolean() throws InputException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        if (t != JsonToken.VALUE_TRUE && t != JsonToken.VALUE_FALSE) {
            throw error("expected true or false, found " + describe(t));
        }
        return t == JsonToken.VALUE_TRUE;
    }

    /** An RFC 3339 timestamp with an offset, as epoch milliseconds, or {@link dev.retryaudit.text.Times#NONE} for null. */
    public long optTimestamp() throws IOException, InputException {
        if (!isString()) {
            return dev.retryaudit.text.Times.NONE;
        }
        CharSequence s = p.getTextLength() > limits.stringLength() ? checkedText()
                : view.of(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
        try {
            return Rfc3339.parse(s);
        } catch (Rfc3339.BadTimestamp e) {
            throw error(e.getMessage());
        }
    }

    /** One of an enum's lower-case wire names ({@code connection_error}), or null for JSON null. */
    public <E extends Enum<E>> E optEnum(Class<E> type) throws IOException, InputException {
        String s = optSharedString();
        if (s == null) {
            return null;
        }
        E e = Wire.parse(type, s, '_');
        if (e == null) {
            throw error("expected one of " + String.join(", ", Wire.names(type, '_')));
        }
        return e;
    }

    /** A free-form JSON object copied as compact text; limits still apply inside it. */
    public String optObjectCopy() throws IOException, InputException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        expectObject("an object");
        StringWriter w = new StringWriter();
        try (JsonGenerator g = COPIER.createGenerator(w)) {
            g.setRootValueSeparator(new SerializedString(""));
            copy(g);
        }
        return w.toString();
    }

    /** Copies the current value, refusing duplicate keys at any depth and over-long strings. */
    private void copy(JsonGenerator g) throws IOException, InputException {
        switch (p.currentToken()) {
            case START_OBJECT -> {
                g.writeStartObject();
                Set<String> names = new HashSet<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    if (!names.add(name)) {
                        throw error("duplicate field: the object already has it");
                    }
                    g.writeFieldName(name);
                    p.nextToken();
                    copy(g);
                }
                g.writeEndObject();
            }
            case START_ARRAY -> {
                g.writeStartArray();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    copy(g);
                }
                g.writeEndArray();
            }
            case VALUE_STRING -> g.writeString(checkedText());
            default -> g.copyCurrentEvent(p);
        }
    }

    /** Skips the current value (and its children), as foreign formats do with fields they do not use. */
    public void skip() throws IOException {
        p.skipChildren();
    }

    /** The current string, refused when it has more characters (code points) than the string limit. */
    private String checkedText() throws IOException, InputException {
        String text = p.getText();
        if (text.length() > limits.stringLength()) {
            int characters = text.codePointCount(0, text.length());
            if (characters > limits.stringLength()) {
                throw error("a string of " + characters + " characters exceeds the string limit of "
                        + limits.stringLength()).over(Limit.STRING);
            }
        }
        return text;
    }

    /** A short name for a token, for "expected X, found Y" messages (never the value itself). */
    public static String describe(JsonToken t) {
        if (t == null) {
            return "the end of the input";
        }
        return switch (t) {
            case START_OBJECT -> "an object";
            case START_ARRAY -> "an array";
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT -> "an integer";
            case VALUE_NUMBER_FLOAT -> "a fractional number";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            case VALUE_NULL -> "null";
            default -> t.asString() == null ? t.name() : t.asString();
        };
    }

    /** The parser's characters of the current value as a {@link CharSequence}, without copying them. */
    private static final class CharsView implements CharSequence {
        private char[] chars;
        private int offset;
        private int length;

        CharsView of(char[] chars, int offset, int length) {
            this.chars = chars;
            this.offset = offset;
            this.length = length;
            return this;
        }

        @Override
        public int length() {
            return length;
        }

        @Override
        public char charAt(int index) {
            if (index < 0 || index >= length) {
                throw new IndexOutOfBoundsException(index);
            }
            return chars[offset + index];
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return toString().subSequence(start, end);
        }

        @Override
        public String toString() {
            return new String(chars, offset, length);
        }
    }
}

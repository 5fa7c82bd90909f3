package dev.retryaudit.input.operations;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.model.internal.InputException;
import java.io.IOException;
import java.util.Arrays;

/**
 * A string value of a span line (an operation or span id) kept as the parser's characters in a
 * buffer reused from line to line, with the hash {@link String#hashCode()} would give: the value is
 * looked up and held without a string of its own per line. Absent (JSON null, or no such field) until read.
 */
final class LineText {
    private char[] chars = new char[32];
    private int length = -1;
    private int hash;

    /** Reads the current value as {@link JsonCursor#optString()} does, with the same errors and limits. */
    void read(JsonCursor c) throws IOException, InputException {
        JsonParser p = c.parser();
        if (c.token() == JsonToken.VALUE_STRING && p.getTextLength() <= c.limits().stringLength()) {
            set(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
            return;
        }
        String s = c.optString();
        if (s == null) {
            clear();
        } else {
            set(s.toCharArray(), 0, s.length());
        }
    }

    private void set(char[] from, int offset, int n) {
        if (n > chars.length) {
            chars = Arrays.copyOf(chars, Math.max(n, 2 * chars.length));
        }
        System.arraycopy(from, offset, chars, 0, n);
        int h = 0;
        for (int k = 0; k < n; k++) {
            h = 31 * h + chars[k];
        }
        length = n;
        hash = h;
    }

    /** Forgets the value, for the next line. */
    void clear() {
        length = -1;
    }

    /** Whether a value was read (not absent, not JSON null). */
    boolean present() {
        return length >= 0;
    }

    /** The hash of the value as a string's. */
    int stringHash() {
        return hash;
    }

    /** Whether every character is ASCII. */
    boolean ascii() {
        for (int k = 0; k < length; k++) {
            if (chars[k] >= 0x80) {
                return false;
            }
        }
        return true;
    }

    /** The number of characters; -1 when absent. */
    int length() {
        return length;
    }

    /** The characters, the first {@link #length()} of them the value's. */
    char[] chars() {
        return chars;
    }

    /** The value as a string, made anew; null when absent. */
    String value() {
        return length < 0 ? null : new String(chars, 0, length);
    }

}

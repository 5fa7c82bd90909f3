package dev.retryaudit.json;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.retryaudit.model.values.RawJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;

/**
 * Writes JSON straight into bytes, laid out as {@link Json#generator}'s printer lays it out (two-space
 * indent, {@code "key": value}, empty containers as {@code {}} and {@code []}), for the parts of a report
 * that repeat hundreds of thousands of times: the caller writes the fixed parts as constant ASCII and
 * this writes the values. A string of printable ASCII is copied as it is; any other string, a raw value
 * of other than ASCII and a number that is not finite go through jackson's own generator, so the bytes are
 * always those the generator writes. Not thread-safe.
 */
public final class PrettyBytes {
    private static final int SIZE = 1 << 15;
    private static final byte[] NULL = {'n', 'u', 'l', 'l'};
    private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
    private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};

    private final OutputStream out;
    private final byte[] buf = new byte[SIZE];
    private int used;
    /** The bytes of one value written by jackson, for what is not copied as it is. */
    private final ByteArrayOutputStream generated = new ByteArrayOutputStream(64);

    public PrettyBytes(OutputStream out) {
        this.out = out;
    }

    /** Writes {@code ascii}, which holds no character above 0x7f, as it is. */
    @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int): the low byte of each char, right for ASCII
    public void ascii(String ascii) throws IOException {
        int len = ascii.length();
        if (len > SIZE - used) {
            drain();
            if (len > SIZE) {
                out.write(ascii.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                return;
            }
        }
        ascii.getBytes(0, len, buf, used);
        used += len;
    }

    /** Starts a line at nesting {@code level}: a line feed and two spaces a level. */
    public void indent(int level) throws IOException {
        int n = 1 + 2 * level;
        if (n > SIZE - used) {
            drain();
        }
        buf[used++] = '\n';
        for (int i = 1; i < n; i++) {
            buf[used++] = ' ';
        }
    }

    /** Writes one byte of ASCII. */
    public void ascii(char c) throws IOException {
        if (used == SIZE) {
            drain();
        }
        buf[used++] = (byte) c;
    }

    /** Writes {@code s} as a JSON string, or {@code null}. */
    @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int), as in ascii(String)
    public void string(String s) throws IOException {
        if (s == null) {
            bytes(NULL);
            return;
        }
        int len = s.length();
        for (int i = 0; i < len; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
                generated(g -> g.writeString(s));
                return;
            }
        }
        if (len + 2 > SIZE - used) {
            drain();
            if (len + 2 > SIZE) {
                generated(g -> g.writeString(s));
                return;
            }
        }
        buf[used++] = '"';
        s.getBytes(0, len, buf, used);
        used += len;
        buf[used++] = '"';
    }

    /** Writes {@code n} as a JSON number. */
    public void number(long n) throws IOException {
        if (20 > SIZE - used) {
            drain();
        }
        if (n < 0) {
            if (n == Long.MIN_VALUE) {
                ascii(Long.toString(n));
                return;
            }
            buf[used++] = '-';
            n = -n;
        }
        int digits = 1;
        for (long rest = n / 10; rest != 0; rest /= 10) {
            digits++;
        }
        int at = used + digits;
        used = at;
        do {
            buf[--at] = (byte) ('0' + n % 10);
            n /= 10;
        } while (n != 0);
    }

    /** Writes {@code n} as a JSON number, or {@code null}. */
    public void number(Integer n) throws IOException {
        if (n == null) {
            bytes(NULL);
        } else {
            number(n.longValue());
        }
    }

    /**
     * Writes a value as {@link Json#value} does: scalars, lists, maps and raw JSON kept as it came; a list
     * or map laid out at nesting {@code level}, the level of the line its first character stands on.
     */
    public void value(Object v, int level) throws IOException {
        if (v == null) {
            bytes(NULL);
        } else if (v instanceof String s) {
            string(s);
        } else if (v instanceof Integer i) {
            number(i.longValue());
        } else if (v instanceof Long l) {
            number(l.longValue());
        } else if (v instanceof Double d) {
            if (Double.isFinite(d)) {
                ascii(Double.toString(d));
            } else {
                generated(g -> g.writeNumber(d));
            }
        } else if (v instanceof Boolean b) {
            bytes(b ? TRUE : FALSE);
        } else if (v instanceof RawJson r) {
            raw(r.json());
        } else if (v instanceof List<?> list) {
            ascii('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    ascii(',');
                }
                indent(level + 1);
                value(list.get(i), level + 1);
            }
            if (!list.isEmpty()) {
                indent(level);
            }
            ascii(']');
        } else if (v instanceof Map<?, ?> map) {
            ascii('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!first) {
                    ascii(',');
                }
                first = false;
                indent(level + 1);
                string(String.valueOf(e.getKey()));
                ascii(':');
                ascii(' ');
                value(e.getValue(), level + 1);
            }
            if (!first) {
                indent(level);
            }
            ascii('}');
        } else {
            throw new IllegalArgumentException("cannot write " + v.getClass());
        }
    }

    private void raw(String json) throws IOException {
        for (int i = 0; i < json.length(); i++) {
            if (json.charAt(i) >= 0x80) {
                generated(g -> g.writeRawValue(json));
                return;
            }
        }
        ascii(json);
    }

    /** Passes what is written on to the stream. */
    public void flush() throws IOException {
        drain();
        out.flush();
    }

    private interface Generated {
        void write(JsonGenerator g) throws IOException;
    }

    /** The bytes jackson's generator writes for one value at the top level: no separator, no indent. */
    private void generated(Generated value) throws IOException {
        generated.reset();
        try (JsonGenerator g = Json.generator(generated)) {
            g.setPrettyPrinter(null);
            value.write(g);
        }
        drain();
        generated.writeTo(out);
    }

    private void bytes(byte[] b) throws IOException {
        if (b.length > SIZE - used) {
            drain();
        }
        System.arraycopy(b, 0, buf, used, b.length);
        used += b.length;
    }

    private void drain() throws IOException {
        if (used > 0) {
            out.write(buf, 0, used);
            used = 0;
        }
    }
}

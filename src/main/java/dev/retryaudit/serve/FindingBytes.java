package dev.retryaudit.serve;

import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Severity;
import dev.retryaudit.model.values.RawJson;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Findings as one block of bytes and back, equal as they were: each field as it is read (the message as its text,
 * a timestamp in the evidence as the text it reads as; the fingerprint is computed again from the fields), the
 * names that repeat (rules, tools, sources, evidence keys) written once a block. Written straight into an array:
 * numbers as variable-length integers (small ones take a byte), a string of chars below 256 (the usual text) as
 * a byte a char and any other as its chars, two bytes each, which keeps every char (an unpaired surrogate too).
 * What a receiver keeps of the findings it handed on, for the report at the end.
 */
final class FindingBytes {
    private static final Severity[] SEVERITIES = Severity.values();
    private static final int NULL = 0;
    private static final int STRING = 1;
    private static final int LONG = 2;
    private static final int INTEGER = 3;
    private static final int DOUBLE = 4;
    private static final int TRUE = 5;
    private static final int FALSE = 6;
    private static final int RAW_JSON = 7;
    private static final int LIST = 8;
    /** A name's reference: none, one written here for the first time, or else the number of one written before plus this. */
    private static final int NO_NAME = 0;
    private static final int NEW_NAME = 1;
    private static final int KNOWN_NAME = 2;

    private FindingBytes() {
    }

    /** {@code findings} as one block. */
    static byte[] write(List<Finding> findings) {
        return new Writer().block(findings);
    }

    /** The findings of {@code block}, in their order. */
    static List<Finding> read(byte[] block) {
        Reader r = new Reader(block);
        int n = (int) r.unsigned();
        List<Finding> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(r.finding());
        }
        if (r.at != block.length) {
            throw new IllegalStateException("a block written in this process reads back whole: "
                    + (block.length - r.at) + " bytes left");
        }
        return out;
    }

    /**
     * Writes blocks, one at a time, into an array it keeps for the next: one that writes many blocks grows it to
     * the largest block once, and then allocates the blocks alone. Not thread-safe.
     */
    static final class Writer {
        private final Map<String, Integer> names = new HashMap<>();
        private byte[] buf = new byte[1024];
        private int at;

        /** {@code findings} as one block. */
        byte[] block(List<Finding> findings) {
            names.clear();
            at = 0;
            unsigned(findings.size());
            for (Finding f : findings) {
                finding(f);
            }
            return Arrays.copyOf(buf, at);
        }

        private void finding(Finding f) {
            name(f.rule());
            room(1);
            buf[at++] = (byte) f.severity().ordinal();
            text(f.operation());
            Integer attempt = f.attempt();
            // 0 for none, else the attempt's zigzag code plus 1
            unsigned(attempt == null ? 0 : zigzag(attempt) + 1);
            name(f.tool());
            text(f.run());
            text(f.message());
            Evidence e = f.evidence();
            unsigned(e.size());
            for (int i = 0; i < e.size(); i++) {
                name(e.key(i));
                value(e.value(i));
            }
            Location where = f.location();
            name(where.source());
            unsigned(where.sourceIndex());
            unsigned(where.line());
            unsigned(where.column());
            name(where.pointer());
        }

        private void value(Object v) {
            if (v == null) {
                tag(NULL);
            } else if (v instanceof String s) {
                tag(STRING);
                text(s);
            } else if (v instanceof Long l) {
                tag(LONG);
                unsigned(zigzag(l));
            } else if (v instanceof Integer i) {
                tag(INTEGER);
                unsigned(zigzag(i));
            } else if (v instanceof Double d) {
                tag(DOUBLE);
                fixed(Double.doubleToRawLongBits(d));
            } else if (v instanceof Boolean b) {
                tag(b ? TRUE : FALSE);
            } else if (v instanceof RawJson j) {
                tag(RAW_JSON);
                text(j.json());
            } else if (v instanceof List<?> list) {
                tag(LIST);
                unsigned(list.size());
                for (Object item : list) {
                    value(item);
                }
            } else {
                throw new IllegalArgumentException("evidence holds no " + v.getClass());
            }
        }

        /** A string that repeats across findings: its number once it was written. */
        private void name(String s) {
            if (s == null) {
                unsigned(NO_NAME);
                return;
            }
            Integer known = names.get(s);
            if (known != null) {
                unsigned(KNOWN_NAME + (long) known);
                return;
            }
            unsigned(NEW_NAME);
            text(s);
            names.put(s, names.size());
        }

        /**
         * 0 for null, else 1 plus twice the length plus 1 when the chars follow two bytes each (a char past 255
         * is among them), not one: the text is copied a byte a char until such a char, then written again.
         */
        private void text(String s) {
            if (s == null) {
                unsigned(0);
                return;
            }
            int n = s.length();
            int start = at;
            unsigned(1 + 2L * n);
            room(n);
            for (int i = 0; i < n; i++) {
                char c = s.charAt(i);
                if (c > 0xff) {
                    at = start;
                    wide(s);
                    return;
                }
                buf[at + i] = (byte) c;
            }
            at += n;
        }

        private void wide(String s) {
            int n = s.length();
            unsigned(2 + 2L * n);
            room(2 * n);
            for (int i = 0; i < n; i++) {
                char c = s.charAt(i);
                buf[at++] = (byte) (c >>> 8);
                buf[at++] = (byte) c;
            }
        }

        private void tag(int tag) {
            room(1);
            buf[at++] = (byte) tag;
        }

        /** {@code v} (not negative, or a zigzag code) 7 bits a byte, the low bits first, the high bit set on all but the last. */
        private void unsigned(long v) {
            room(10);
            while ((v & ~0x7fL) != 0) {
                buf[at++] = (byte) (v & 0x7f | 0x80);
                v >>>= 7;
            }
            buf[at++] = (byte) v;
        }

        private void fixed(long v) {
            room(8);
            for (int shift = 56; shift >= 0; shift -= 8) {
                buf[at++] = (byte) (v >>> shift);
            }
        }

        private void room(int n) {
            if (buf.length - at < n) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, at + n));
            }
        }
    }

    /** {@code v} with its sign in the lowest bit, so that a number near 0 either side is small. */
    private static long zigzag(long v) {
        return v << 1 ^ v >> 63;
    }

    private static long unzigzag(long v) {
        return v >>> 1 ^ -(v & 1);
    }

    private static final class Reader {
        final byte[] buf;
        final List<String> names = new ArrayList<>();
        int at;

        Reader(byte[] buf) {
            this.buf = buf;
        }

        Finding finding() {
            Finding.Builder b = Finding.builder().rule(name()).severity(SEVERITIES[buf[at++]]).operation(text());
            long attempt = unsigned();
            b.attempt(attempt == 0 ? null : (int) unzigzag(attempt - 1)).tool(name()).run(text()).message(text());
            Evidence e = Evidence.of();
            int facts = (int) unsigned();
            for (int i = 0; i < facts; i++) {
                e.put(name(), value());
            }
            return b.evidence(e).at(new Location(name(), (int) unsigned(), unsigned(), unsigned(), name())).build();
        }

        Object value() {
            int tag = buf[at++];
            return switch (tag) {
                case NULL -> null;
                case STRING -> text();
                case LONG -> unzigzag(unsigned());
                case INTEGER -> (int) unzigzag(unsigned());
                case DOUBLE -> Double.longBitsToDouble(fixed());
                case TRUE -> Boolean.TRUE;
                case FALSE -> Boolean.FALSE;
                case RAW_JSON -> new RawJson(text());
                case LIST -> {
                    int n = (int) unsigned();
                    List<Object> list = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        list.add(value());
                    }
                    yield list;
                }
                default -> throw new IllegalStateException("no evidence value is tagged " + tag);
            };
        }

        String name() {
            long n = unsigned();
            if (n == NO_NAME) {
                return null;
            }
            if (n >= KNOWN_NAME) {
                return names.get((int) (n - KNOWN_NAME));
            }
            String s = text();
            names.add(s);
            return s;
        }

        String text() {
            long head = unsigned();
            if (head == 0) {
                return null;
            }
            int n = (int) ((head - 1) >>> 1);
            if ((head - 1 & 1) == 0) {
                String s = new String(buf, at, n, StandardCharsets.ISO_8859_1);
                at += n;
                return s;
            }
            char[] chars = new char[n];
            for (int i = 0; i < n; i++) {
                chars[i] = (char) ((buf[at] & 0xff) << 8 | buf[at + 1] & 0xff);
                at += 2;
            }
            return new String(chars);
        }

        long unsigned() {
            long v = 0;
            for (int shift = 0; ; shift += 7) {
                byte b = buf[at++];
                v |= (long) (b & 0x7f) << shift;
                if (b >= 0) {
                    return v;
                }
            }
        }

        long fixed() {
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = v << 8 | buf[at++] & 0xff;
            }
            return v;
        }
    }
}

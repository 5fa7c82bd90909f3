package dev.retryaudit.input.foreign.otlp;

import java.nio.charset.StandardCharsets;

/**
 * A cursor over protobuf's wire format in memory: tags, varints, fixed-width numbers and length-delimited
 * fields between a position and the end of the message being read. Anything it cannot read as the common
 * form of a well-formed message (a varint of more than ten bytes, a length past the end, a group, a tag of
 * more than 32 bits) is {@link Irregular}, for the caller to leave to protobuf-java, which decides whether
 * and how it is wrong. Not thread-safe.
 */
final class ProtobufWire {
    static final int VARINT = 0;
    static final int FIXED64 = 1;
    static final int LENGTH_DELIMITED = 2;
    static final int START_GROUP = 3;
    static final int END_GROUP = 4;
    static final int FIXED32 = 5;

    /** Bytes this cursor does not read as the common form of a message; no stack trace, as it is expected. */
    static final class Irregular extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Irregular() {
            super("not the common form of a protobuf message", null, false, false);
        }
    }

    static final Irregular IRREGULAR = new Irregular();

    final byte[] bytes;
    int pos;
    int end;

    ProtobufWire(byte[] bytes, int offset, int length) {
        this.bytes = bytes;
        this.pos = offset;
        this.end = offset + length;
    }

    boolean more() {
        return pos < end;
    }

    /** The next tag: its field number shifted left by three, or'ed with its wire type. */
    int tag() {
        long t = varint();
        if (t >>> 3 == 0 || t > 0xFFFF_FFFFL) {
            throw IRREGULAR;
        }
        return (int) t;
    }

    static int tag(int number, int wireType) {
        return number << 3 | wireType;
    }

    static int number(int tag) {
        return tag >>> 3;
    }

    static int wireType(int tag) {
        return tag & 7;
    }

    long varint() {
        long r = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (pos >= end) {
                throw IRREGULAR;
            }
            byte b = bytes[pos++];
            r |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return r;
            }
        }
        throw IRREGULAR;
    }

    long fixed64() {
        if (end - pos < 8) {
            throw IRREGULAR;
        }
        long r = 0;
        for (int i = 7; i >= 0; i--) {
            r = r << 8 | (bytes[pos + i] & 0xFFL);
        }
        pos += 8;
        return r;
    }

    /** The length of a length-delimited field, which must fit in what is left of the message. */
    int length() {
        long n = varint();
        if (n > end - pos) {
            throw IRREGULAR;
        }
        return (int) n;
    }

    /** Skips the value of a field of wire type {@code wireType} that this tag began; a group is {@link Irregular}. */
    void skip(int wireType) {
        switch (wireType) {
            case VARINT -> varint();
            case FIXED64 -> advance(8);
            case LENGTH_DELIMITED -> {
                int n = length();
                pos += n;
            }
            case FIXED32 -> advance(4);
            default -> throw IRREGULAR;
        }
    }

    /**
     * Skips the value of a field this tag began in a message protobuf-java wrote, groups included (of unknown
     * fields it keeps).
     */
    void skipField(int tag) {
        if (wireType(tag) != START_GROUP) {
            skip(wireType(tag));
            return;
        }
        for (int t = tag(); wireType(t) != END_GROUP; t = tag()) {
            skipField(t);
        }
    }

    private void advance(int n) {
        if (end - pos < n) {
            throw IRREGULAR;
        }
        pos += n;
    }

    /** A string of {@code length} bytes at the position, which must be UTF-8, as protobuf's checks it. */
    String string(int length) {
        String s = new String(bytes, pos, length, StandardCharsets.UTF_8);
        pos += length;
        return s;
    }

    /** The rest of the message as a string, which must be UTF-8. */
    String rest() {
        return string(end - pos);
    }

    /**
     * Whether {@code length} bytes at {@code from} are well-formed UTF-8: no overlong form, no surrogate, nothing
     * past U+10FFFF (what protobuf-java requires of a proto3 string).
     */
    static boolean utf8(byte[] b, int from, int length) {
        int i = from;
        int end = from + length;
        while (i < end) {
            int c = b[i] & 0xFF;
            if (c < 0x80) {
                i++;
                continue;
            }
            int n;
            int lo = 0x80;
            int hi = 0xBF;
            if (c >= 0xC2 && c <= 0xDF) {
                n = 1;
            } else if (c >= 0xE0 && c <= 0xEF) {
                n = 2;
                lo = c == 0xE0 ? 0xA0 : 0x80;
                hi = c == 0xED ? 0x9F : 0xBF;
            } else if (c >= 0xF0 && c <= 0xF4) {
                n = 3;
                lo = c == 0xF0 ? 0x90 : 0x80;
                hi = c == 0xF4 ? 0x8F : 0xBF;
            } else {
                return false;
            }
            if (end - i <= n) {
                return false;
            }
            int second = b[i + 1] & 0xFF;
            if (second < lo || second > hi) {
                return false;
            }
            for (int k = 2; k <= n; k++) {
                int next = b[i + k] & 0xFF;
                if (next < 0x80 || next > 0xBF) {
                    return false;
                }
            }
            i += n + 1;
        }
        return true;
    }
}

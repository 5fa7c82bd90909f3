package dev.retryaudit.input.foreign;

import dev.retryaudit.model.CommitState;
import dev.retryaudit.model.CommitStateSource;
import dev.retryaudit.model.Effect;
import dev.retryaudit.model.ErrorClass;
import dev.retryaudit.model.GrpcStatus;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Outcome;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Attempt spans packed each into one byte array, for a receiver that holds many of them for a while: a
 * {@link ForeignSpan} with its hop is a dozen objects the collector traces and copies, the packed span one array
 * of about a third of their size that it does neither to. {@link #unpack} gives back a span equal field by field
 * to the one packed. The span's order and start time stand first, fixed, for {@link #order} and
 * {@link #startNanos} to read in place. Strings that are lower-case hex (ids) are packed as their bytes, other
 * ASCII strings as bytes, the rest as UTF-16; unpacking the spans of one context together shares a string equal
 * to the same field's of the span unpacked before. Not thread-safe: one instance a thread.
 */
public final class PackedSpans {
    private static final int FIXED = 16;
    private static final int ASCII = 1;
    private static final int HEX = 2;
    private static final int UTF16 = 3;
    private static final byte[] HEX_DIGITS = {'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd',
        'e', 'f'};
    private static final ForeignSpan.Kind[] KINDS = ForeignSpan.Kind.values();
    private static final Effect[] EFFECTS = Effect.values();
    private static final Outcome[] OUTCOMES = Outcome.values();
    private static final CommitState[] COMMIT_STATES = CommitState.values();
    private static final CommitStateSource[] COMMIT_STATE_SOURCES = CommitStateSource.values();
    private static final GrpcStatus[] GRPC_STATUSES = GrpcStatus.values();
    private static final ErrorClass[] ERROR_CLASSES = ErrorClass.values();
    private static final GrpcSpan.Role[] ROLES = GrpcSpan.Role.values();
    /**
     * The string fields unpacking shares with the span before: trace, parent, client, run, location source, array
     * pointer, name, method, host, thread, resend source, tool name.
     */
    private static final int SHARED = 12;

    private byte[] buf = new byte[256];
    private int pos;
    /** The packed span being unpacked. */
    private byte[] in;
    private int at;
    /** The hex digits of the id being unpacked. */
    private byte[] digits = new byte[64];
    private final String[] last = new String[SHARED];

    /** The order of the span packed in {@code packed}. */
    public static long order(byte[] packed) {
        return fixed(packed, 0);
    }

    /** The start time, in unsigned nanoseconds, of the span packed in {@code packed}. */
    public static long startNanos(byte[] packed) {
        return fixed(packed, 8);
    }

    /** {@code s} packed. */
    public byte[] pack(ForeignSpan s) {
        pos = 0;
        fixed(s.order);
        fixed(s.startNanos);
        Hop h = s.hop;
        int flags = (s.server ? 1 : 0) | (s.modelCall ? 2 : 0) | (s.requestHeaders ? 4 : 0)
                | (s.responseHeaders ? 8 : 0) | (s.abandoned ? 16 : 0) | (s.placeIsId ? 32 : 0)
                | (s.grpc != null ? 64 : 0) | (h.location != null ? 128 : 0);
        varint(flags);
        varint(ordinal(s.kind));
        varint(s.line);
        varint(s.column);
        string(s.arrayPointer);
        varint(s.index);
        string(s.traceId);
        string(s.spanId);
        string(s.parentSpanId);
        string(s.name);
        string(s.operationId);
        string(s.runId);
        varint(ordinal(s.effect));
        string(s.method);
        string(s.url);
        string(s.host);
        string(s.toolName);
        string(s.toolCallId);
        string(s.toolArguments);
        string(s.client);
        string(s.thread);
        string(s.resendSource);
        if (s.grpc != null) {
            GrpcSpan g = s.grpc;
            varint(ordinal(g.role) | (g.transparent ? 1 << 8 : 0) | (g.conventions ? 1 << 9 : 0));
            string(g.method);
            integer(g.previousAttempts);
        }
        hop(h);
        return Arrays.copyOf(buf, pos);
    }

    private void hop(Hop h) {
        integer(h.attemptId);
        integer(h.resendCount);
        string(h.spanId);
        string(h.idempotencyKey);
        string(h.clientRequestId);
        varint(h.startedAt);
        varint(h.endedAt);
        fixed(Double.doubleToRawLongBits(h.durationMs));
        varint(ordinal(h.outcome));
        integer(h.status);
        string(h.retryAfter);
        string(h.responseDate);
        varint(ordinal(h.commitState));
        varint(ordinal(h.commitStateSource));
        string(h.retryReason);
        string(h.requestHash);
        if (h.location != null) {
            Location l = h.location;
            string(l.source());
            varint(l.sourceIndex());
            varint(l.line());
            varint(l.column());
            string(l.pointer());
        }
        varint(ordinal(h.grpcStatus));
        varint(ordinal(h.errorClass));
        string(h.retryPushback);
        string(h.toolArguments);
    }

    /** The span packed in {@code packed}, a new one. */
    public ForeignSpan unpack(byte[] packed) {
        in = packed;
        at = 0;
        ForeignSpan s = new ForeignSpan();
        s.order = fixed();
        s.startNanos = fixed();
        int flags = (int) varint();
        s.server = (flags & 1) != 0;
        s.modelCall = (flags & 2) != 0;
        s.requestHeaders = (flags & 4) != 0;
        s.responseHeaders = (flags & 8) != 0;
        s.abandoned = (flags & 16) != 0;
        s.placeIsId = (flags & 32) != 0;
        s.kind = of(KINDS, varint());
        s.line = varint();
        s.column = varint();
        s.arrayPointer = shared(5, string());
        s.index = (int) varint();
        s.traceId = shared(0, string());
        s.spanId = string();
        s.parentSpanId = shared(1, string());
        s.name = shared(6, string());
        s.operationId = string();
        s.runId = shared(3, string());
        s.effect = of(EFFECTS, varint());
        s.method = shared(7, string());
        s.url = string();
        s.host = shared(8, string());
        s.toolName = shared(11, string());
        s.toolCallId = string();
        s.toolArguments = string();
        s.client = shared(2, string());
        s.thread = shared(9, string());
        s.resendSource = shared(10, string());
        if ((flags & 64) != 0) {
            int g = (int) varint();
            s.grpc = new GrpcSpan(ROLES[(g & 0xFF) - 1], string(), integer(), (g & 1 << 8) != 0, (g & 1 << 9) != 0);
        }
        hop(s.hop, (flags & 128) != 0);
        if (at != packed.length) {
            throw new IllegalStateException("a packed span of " + packed.length + " bytes unpacked to " + at);
        }
        return s;
    }

    private void hop(Hop h, boolean located) {
        h.attemptId = integer();
        h.resendCount = integer();
        h.spanId = string();
        h.idempotencyKey = string();
        h.clientRequestId = string();
        h.startedAt = varint();
        h.endedAt = varint();
        h.durationMs = Double.longBitsToDouble(fixed());
        h.outcome = of(OUTCOMES, varint());
        h.status = integer();
        h.retryAfter = string();
        h.responseDate = string();
        h.commitState = of(COMMIT_STATES, varint());
        h.commitStateSource = of(COMMIT_STATE_SOURCES, varint());
        h.retryReason = string();
        h.requestHash = string();
        if (located) {
            h.location = new Location(shared(4, string()), (int) varint(), varint(), varint(), string());
        }
        h.grpcStatus = of(GRPC_STATUSES, varint());
        h.errorClass = of(ERROR_CLASSES, varint());
        h.retryPushback = string();
        h.toolArguments = string();
    }

    /** {@code s}, or the equal string of field {@code slot} unpacked before, which it then is. */
    private String shared(int slot, String s) {
        String before = last[slot];
        if (s != null && s.equals(before)) {
            return before;
        }
        last[slot] = s;
        return s;
    }

    private static int ordinal(Enum<?> e) {
        return e == null ? 0 : e.ordinal() + 1;
    }

    private static <E> E of(E[] values, long n) {
        return n == 0 ? null : values[(int) n - 1];
    }

    private void room(int n) {
        if (pos + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(2 * buf.length, pos + n));
        }
    }

    private void fixed(long v) {
        room(8);
        for (int i = 56; i >= 0; i -= 8) {
            buf[pos++] = (byte) (v >>> i);
        }
    }

    private long fixed() {
        long v = fixed(in, at);
        at += 8;
        return v;
    }

    private static long fixed(byte[] b, int at) {
        long v = 0;
        for (int i = at; i < at + 8; i++) {
            v = v << 8 | (b[i] & 0xFF);
        }
        return v;
    }

    /** {@code v} zigzag-encoded as a base-128 varint. */
    private void varint(long v) {
        room(10);
        long z = (v << 1) ^ (v >> 63);
        while ((z & ~0x7FL) != 0) {
            buf[pos++] = (byte) ((z & 0x7F) | 0x80);
            z >>>= 7;
        }
        buf[pos++] = (byte) z;
    }

    private long varint() {
        long z = 0;
        for (int shift = 0;; shift += 7) {
            byte b = in[at++];
            z |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return (z >>> 1) ^ -(z & 1);
            }
        }
    }

    private void integer(Integer v) {
        if (v == null) {
            varint(0);
        } else {
            varint(1);
            varint(v);
        }
    }

    private Integer integer() {
        return varint() == 0 ? null : (int) varint();
    }

    private void string(String s) {
        if (s == null) {
            varint(0);
            return;
        }
        int n = s.length();
        if (n > 0 && n % 2 == 0 && hex(s)) {
            varint((long) n / 2 << 2 | HEX);
            room(n / 2);
            for (int i = 0; i < n; i += 2) {
                buf[pos++] = (byte) (Character.digit(s.charAt(i), 16) << 4 | Character.digit(s.charAt(i + 1), 16));
            }
        } else if (ascii(s)) {
            varint((long) n << 2 | ASCII);
            room(n);
            for (int i = 0; i < n; i++) {
                buf[pos++] = (byte) s.charAt(i);
            }
        } else {
            varint((long) n << 2 | UTF16);
            room(2 * n);
            for (int i = 0; i < n; i++) {
                char c = s.charAt(i);
                buf[pos++] = (byte) (c >>> 8);
                buf[pos++] = (byte) c;
            }
        }
    }

    private String string() {
        long head = varint();
        if (head == 0) {
            return null;
        }
        int n = (int) (head >>> 2);
        int form = (int) (head & 3);
        if (form == HEX) {
            if (digits.length < 2 * n) {
                digits = new byte[2 * n];
            }
            for (int i = 0; i < n; i++) {
                int b = in[at++] & 0xFF;
                digits[2 * i] = HEX_DIGITS[b >>> 4];
                digits[2 * i + 1] = HEX_DIGITS[b & 0xF];
            }
            return new String(digits, 0, 2 * n, StandardCharsets.ISO_8859_1);
        }
        if (form == ASCII) {
            String s = new String(in, at, n, StandardCharsets.ISO_8859_1);
            at += n;
            return s;
        }
        char[] chars = new char[n];
        for (int i = 0; i < n; i++) {
            chars[i] = (char) ((in[at] & 0xFF) << 8 | in[at + 1] & 0xFF);
            at += 2;
        }
        return new String(chars);
    }

    /** Whether {@code s} is all lower-case hex digits. */
    private static boolean hex(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    private static boolean ascii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }
}

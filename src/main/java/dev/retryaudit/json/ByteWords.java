package dev.retryaudit.json;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Bytes looked at eight at a time: whether a word of a byte array holds a line break, so that a
 * pass over a source's bytes for its lines steps over most words whole.
 */
public final class ByteWords {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;
    private static final long RETURNS = 0x0D0D0D0D0D0D0D0DL;
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    private ByteWords() {
    }

    /** Whether the eight bytes of {@code buf} from {@code i} hold a {@code '\n'}. */
    public static boolean holdsNewline(byte[] buf, int i) {
        return zeroByte((long) LONGS.get(buf, i) ^ NEWLINES);
    }

    /** Whether the eight bytes of {@code buf} from {@code i} hold a {@code '\n'} or a {@code '\r'}. */
    public static boolean holdsLineBreak(byte[] buf, int i) {
        long w = (long) LONGS.get(buf, i);
        return zeroByte(w ^ NEWLINES) || zeroByte(w ^ RETURNS);
    }

    /** Whether some byte of {@code x} is 0 (a word with no zero byte never gives true). */
    private static boolean zeroByte(long x) {
        return ((x - ONES) & ~x & HIGHS) != 0;
    }
}

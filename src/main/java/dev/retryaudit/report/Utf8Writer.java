package dev.retryaudit.report;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;

/**
 * Writes characters to a byte stream as UTF-8, the bytes of {@code new OutputStreamWriter(out, UTF_8)}
 * (a surrogate without its pair becomes {@code ?}, a pair split over two writes is joined), without
 * copying each string into a char array first: reports write hundreds of megabytes of mostly ASCII
 * text, so ASCII runs are copied into the buffer as they are. Not thread-safe.
 */
final class Utf8Writer extends Writer {
    private static final int SIZE = 8192;

    private final OutputStream out;
    private final byte[] buf = new byte[SIZE];
    private int used;
    /** A high surrogate written last, waiting for the low one that completes it; 0 for none. */
    private char high;

    Utf8Writer(OutputStream out) {
        this.out = out;
    }

    @Override
    public void write(String s) throws IOException {
        write(s, 0, s.length());
    }

    @Override
    @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int): the low byte of each char, right for ASCII
    public void write(String s, int off, int len) throws IOException {
        int end = off + len;
        int i = off;
        while (i < end) {
            if (high == 0) {
                int ascii = i;
                int stop = Math.min(end, i + SIZE - used);
                while (ascii < stop && s.charAt(ascii) < 0x80) {
                    ascii++;
                }
                if (ascii > i) {
                    s.getBytes(i, ascii, buf, used);
                    used += ascii - i;
                    i = ascii;
                    if (used == SIZE) {
                        drain();
                    }
                    continue;
                }
            }
            encode(s.charAt(i++));
        }
    }

    /** Writes {@code v} in decimal, as {@code Long.toString(v)} would, without making the string. */
    void decimal(long v) throws IOException {
        if (high != 0 || v == Long.MIN_VALUE) {
            write(Long.toString(v));
            return;
        }
        if (used + 20 > SIZE) {
            drain();
        }
        if (v < 0) {
            buf[used++] = '-';
            v = -v;
        }
        int digits = 1;
        for (long rest = v / 10; rest > 0; rest /= 10) {
            digits++;
        }
        for (int i = used + digits - 1; i >= used; i--) {
            buf[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        used += digits;
    }

    @Override
    public void write(int c) throws IOException {
        encode((char) c);
    }

    @Override
    public void write(char[] cbuf, int off, int len) throws IOException {
        for (int i = off; i < off + len; i++) {
            encode(cbuf[i]);
        }
    }

    private void encode(char c) throws IOException {
        if (used + 4 > SIZE) {
            drain();
        }
        if (high != 0) {
            char h = high;
            high = 0;
            if (Character.isLowSurrogate(c)) {
                int cp = Character.toCodePoint(h, c);
                buf[used++] = (byte) (0xf0 | cp >> 18);
                buf[used++] = (byte) (0x80 | cp >> 12 & 0x3f);
                buf[used++] = (byte) (0x80 | cp >> 6 & 0x3f);
                buf[used++] = (byte) (0x80 | cp & 0x3f);
                return;
            }
            buf[used++] = '?';
            encode(c);
            return;
        }
        if (c < 0x80) {
            buf[used++] = (byte) c;
        } else if (c < 0x800) {
            buf[used++] = (byte) (0xc0 | c >> 6);
            buf[used++] = (byte) (0x80 | c & 0x3f);
        } else if (Character.isHighSurrogate(c)) {
            high = c;
        } else if (Character.isLowSurrogate(c)) {
            buf[used++] = '?';
        } else {
            buf[used++] = (byte) (0xe0 | c >> 12);
            buf[used++] = (byte) (0x80 | c >> 6 & 0x3f);
            buf[used++] = (byte) (0x80 | c & 0x3f);
        }
    }

    private void drain() throws IOException {
        out.write(buf, 0, used);
        used = 0;
    }

    /** Writes out what is buffered (a high surrogate still waits for its pair, as in {@code OutputStreamWriter}). */
    @Override
    public void flush() throws IOException {
        drain();
        out.flush();
    }

    /** Flushes; a high surrogate left without its pair ends as {@code ?}. Leaves {@code out} open. */
    @Override
    public void close() throws IOException {
        if (high != 0) {
            high = 0;
            buf[used++] = '?';
        }
        flush();
    }
}

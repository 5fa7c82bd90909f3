package dev.retryaudit.input.reader;

import dev.retryaudit.json.ByteWords;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A stream cut into chunks of whole lines, in order, for readers that parse the chunks of a JSON
 * Lines source on several cores: each chunk ends just after a newline (the last one at the end of
 * the stream) and knows the number of the line it starts on, counted as the parser counts them
 * (LF, CR LF or a lone CR). A read that fails stays for {@link #rest} to repeat. The buffer of a
 * chunk whose lines are done with is handed back ({@link #recycle}) and filled again, so that a long
 * stream costs a few buffers, not its size in garbage. Not thread-safe: one thread takes the chunks.
 */
public final class LineChunks {
    /** One chunk: {@code length} bytes from 0 of {@code bytes}, starting on line {@code firstLine} (from 1). */
    public record Chunk(byte[] bytes, int length, long firstLine) {
    }

    /** The most buffers kept for reuse. */
    private static final int KEPT = 8;

    private final InputStream in;
    private final int size;
    private final ArrayDeque<byte[]> free = new ArrayDeque<>();
    private byte[] carry = new byte[0];
    private int carried;
    private long line = 1;
    private boolean ended;

    /** Cuts {@code in} into chunks of about {@code size} bytes (more when a line is longer). */
    public LineChunks(InputStream in, int size) {
        this.in = in;
        this.size = size;
    }

    /** Whether the stream has ended: every chunk has been taken, or the last one is ready. */
    public boolean ended() {
        return ended;
    }

    /** The next chunk, or null at the end of the file. */
    public Chunk next() throws IOException {
        if (ended && carried == 0) {
            return null;
        }
        byte[] buf = buffer(Math.max(size, carried * 2));
        System.arraycopy(carry, 0, buf, 0, carried);
        carry = buf;
        int n = carried;
        int scanned = n;
        while (true) {
            int cut = lastNewline(buf, n, scanned);
            if (cut >= 0 || ended) {
                int length = cut >= 0 ? cut + 1 : n;
                carried = n - length;
                carry = Arrays.copyOfRange(buf, length, length + carried);
                Chunk c = new Chunk(buf, length, line);
                line += lineBreaks(buf, length);
                return length == 0 ? null : c;
            }
            scanned = n;
            if (n == buf.length) {
                buf = Arrays.copyOf(buf, buf.length * 2);
            }
            int r = in.read(buf, n, buf.length - n);
            if (r < 0) {
                ended = true;
            } else {
                n += r;
                carried = n;
                carry = buf;
            }
        }
    }

    /** Hands back the buffer of {@code chunk}, whose bytes nobody reads any more, to be filled again. */
    public void recycle(Chunk chunk) {
        if (chunk.bytes().length >= size && free.size() < KEPT) {
            free.push(chunk.bytes());
        }
    }

    /** A buffer of at least {@code length} bytes: one handed back if it is large enough, else a new one. */
    private byte[] buffer(int length) {
        byte[] kept = free.poll();
        return kept != null && kept.length >= length ? kept : new byte[length];
    }

    /**
     * The stream from the first line of {@code chunks} (chunks taken and not parsed yet, in order) to
     * its end, after as many line breaks as there are lines before it: a parser over it counts lines
     * and reports errors as over the whole stream. A failed read is repeated at its place.
     */
    public InputStream rest(List<Chunk> chunks) {
        long before = (chunks.isEmpty() ? line : chunks.get(0).firstLine()) - 1;
        List<InputStream> parts = new java.util.ArrayList<>();
        parts.add(new LineBreaks(before));
        for (Chunk c : chunks) {
            parts.add(new ByteArrayInputStream(c.bytes(), 0, c.length()));
        }
        parts.add(new ByteArrayInputStream(carry, 0, carried));
        parts.add(in);
        return new SequenceInputStream(Collections.enumeration(parts));
    }

    /** {@code count} newline bytes. */
    private static final class LineBreaks extends InputStream {
        private long left;

        LineBreaks(long count) {
            left = count;
        }

        @Override
        public int read() {
            if (left == 0) {
                return -1;
            }
            left--;
            return '\n';
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (left == 0) {
                return -1;
            }
            int n = (int) Math.min(len, left);
            Arrays.fill(b, off, off + n, (byte) '\n');
            left -= n;
            return n;
        }
    }

    /** The last newline in {@code buf[from, n)}, or -1. */
    private static int lastNewline(byte[] buf, int n, int from) {
        for (int i = n - 1; i >= from; i--) {
            if (buf[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** The line breaks in {@code buf[0, length)}: LF, CR LF and a lone CR, one each. */
    private static long lineBreaks(byte[] buf, int length) {
        long count = 0;
        int i = 0;
        // Eight bytes at a time: most words hold no line break and are passed over whole.
        for (; i + Long.BYTES <= length; i += Long.BYTES) {
            if (ByteWords.holdsLineBreak(buf, i)) {
                count += lineBreaks(buf, i, i + Long.BYTES, length);
            }
        }
        return count + lineBreaks(buf, i, length, length);
    }

    /** The line breaks that end in {@code buf[from, to)} of a chunk of {@code length} bytes. */
    private static long lineBreaks(byte[] buf, int from, int to, int length) {
        long count = 0;
        for (int i = from; i < to; i++) {
            if (buf[i] == '\n' || buf[i] == '\r' && (i + 1 == length || buf[i + 1] != '\n')) {
                count++;
            }
        }
        return count;
    }
}

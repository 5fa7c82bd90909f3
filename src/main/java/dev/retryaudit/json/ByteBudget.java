package dev.retryaudit.json;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Counts the bytes read from all sources of one audit and stops reading once the byte limit is passed.
 * Each wrapped stream knows the line and column of its next byte, so the error points where the limit was hit.
 */
public final class ByteBudget {
    private final long limit;
    private long used;
    private boolean exceeded;

    public ByteBudget(long limit) {
        this.limit = limit;
    }

    /** Thrown from a read that took the total past the limit; readers turn it into an input error. */
    public static final class ExceededException extends IOException {
        private static final long serialVersionUID = 1L;

        private final long line;
        private final long column;
        private final boolean decompressed;

        ExceededException(long limit, long line, long column, boolean decompressed) {
            super("more than " + limit + " bytes of input");
            this.line = line;
            this.column = column;
            this.decompressed = decompressed;
        }

        /** Whether the source that passed the limit was decompressed: its bytes count as decompressed. */
        public boolean decompressed() {
            return decompressed;
        }

        /** The line of the first byte past the limit in its source. */
        public long line() {
            return line;
        }

        /** The column (in bytes, from 1) of the first byte past the limit in its source. */
        public long column() {
            return column;
        }
    }

    public long limit() {
        return limit;
    }

    /** Wraps a stream so that its reads count against this budget. */
    public Counted wrap(InputStream in) {
        return wrap(in, false);
    }

    /** Wraps a stream, the decompressed text of its source when {@code decompressed}, so that its reads count against this budget. */
    public Counted wrap(InputStream in, boolean decompressed) {
        return new Counted(in, decompressed);
    }

    /** A stream whose reads count against the budget, knowing the line and column of its next byte. */
    public final class Counted extends FilterInputStream {
        private final boolean decompressed;
        private long line = 1;
        private long read;
        private long lineStart;

        Counted(InputStream in, boolean decompressed) {
            super(in);
            this.decompressed = decompressed;
        }

        /** The line of the next byte, from 1. */
        public long line() {
            return line;
        }

        /** The column (in bytes, from 1) of the next byte. */
        public long column() {
            return read - lineStart + 1;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n <= 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
            if (exceeded) {
                throw new ExceededException(limit, line, column(), decompressed);
            }
            int n = super.read(buf, off, len);
            if (n > 0 && used + n > limit) {
                // Hand on the bytes up to the limit; the next read reports that more followed.
                exceeded = true;
                n = (int) (limit - used);
                used = limit;
                if (n <= 0) {
                    return read(buf, off, len);
                }
                count(buf, off, n);
                return n;
            }
            if (n > 0) {
                used += n;
                count(buf, off, n);
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            byte[] scratch = new byte[(int) Math.min(8192, Math.max(1, n))];
            long skipped = 0;
            while (skipped < n) {
                int r = read(scratch, 0, (int) Math.min(scratch.length, n - skipped));
                if (r <= 0) {
                    break;
                }
                skipped += r;
            }
            return skipped;
        }

        private void count(byte[] buf, int off, int n) {
            int end = off + n;
            int i = off;
            // Eight bytes at a time: most words hold no newline and are passed over whole.
            for (; i + Long.BYTES <= end; i += Long.BYTES) {
                if (ByteWords.holdsNewline(buf, i)) {
                    lines(buf, i, i + Long.BYTES, off);
                }
            }
            lines(buf, i, end, off);
            read += n;
        }

        /** Counts the newlines in {@code buf[from, to)}, of a read that started at {@code off}. */
        private void lines(byte[] buf, int from, int to, int off) {
            for (int i = from; i < to; i++) {
                if (buf[i] == '\n') {
                    line++;
                    lineStart = read + (i - off) + 1;
                }
            }
        }
    }
}

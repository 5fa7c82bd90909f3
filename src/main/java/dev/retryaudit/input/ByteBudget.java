package dev.retryaudit.input;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Counts the bytes read from all sources of one audit and stops reading once {@code --limit-bytes} is passed. */
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

        ExceededException(long limit) {
            super("more than " + limit + " bytes of input");
        }
    }

    public long limit() {
        return limit;
    }

    /** Whether a read found more input than the limit allows. */
    public boolean exceeded() {
        return exceeded;
    }

    /** Wraps a stream so that its reads count against this budget. */
    public InputStream wrap(InputStream in) {
        return new FilterInputStream(in) {
            @Override
            public int read() throws IOException {
                int b = super.read();
                if (b >= 0) {
                    charge(1);
                }
                return b;
            }

            @Override
            public int read(byte[] buf, int off, int len) throws IOException {
                if (exceeded) {
                    throw new ExceededException(limit);
                }
                int n = super.read(buf, off, len);
                if (n > 0 && used + n > limit) {
                    // Hand on the bytes up to the limit; the next read reports that more followed.
                    exceeded = true;
                    n = (int) (limit - used);
                    used = limit;
                    return n > 0 ? n : read(buf, off, len);
                }
                if (n > 0) {
                    used += n;
                }
                return n;
            }

            @Override
            public long skip(long n) throws IOException {
                long skipped = super.skip(n);
                charge(skipped);
                return skipped;
            }
        };
    }

    private void charge(long n) throws ExceededException {
        used += n;
        if (used > limit) {
            exceeded = true;
            throw new ExceededException(limit);
        }
    }
}

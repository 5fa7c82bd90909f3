package dev.retryaudit.cli;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;

/**
 * Standard output that remembers the first write that failed, since {@link java.io.PrintWriter}
 * swallows it: a command whose output was lost ({@code > /dev/full}) must not exit 0. A reader that
 * closed the pipe early ({@code | head}) is not a failure.
 */
final class WatchedOutput extends FilterOutputStream {
    private IOException failure;

    WatchedOutput(OutputStream out) {
        super(out);
    }

    @Override
    public void write(int b) throws IOException {
        try {
            out.write(b);
        } catch (IOException e) {
            throw failed(e);
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            throw failed(e);
        }
    }

    @Override
    public void flush() throws IOException {
        try {
            out.flush();
        } catch (IOException e) {
            throw failed(e);
        }
    }

    /** The stream written to. */
    OutputStream watched() {
        return out;
    }

    /** The first write that failed, other than one to a closed pipe; null when none did. */
    IOException failure() {
        return failure;
    }

    /** Whether {@code e} says the reader went away, which ends the output without an error. */
    static boolean isClosedPipe(IOException e) {
        String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        return m.contains("broken pipe") || m.contains("stream closed");
    }

    private IOException failed(IOException e) {
        if (failure == null && !isClosedPipe(e)) {
            failure = e;
        }
        return e;
    }
}

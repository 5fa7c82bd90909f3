package dev.retryaudit.mcp;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * The client's stream of newline-delimited JSON-RPC messages, as the SDK's stdio transport reads it: each line
 * goes through the {@link MessageCheck} first, and only what it passes reaches the transport; a line longer than
 * {@code max} bytes (which the transport would answer by closing the session) is answered as too long. The end of
 * the stream (or a failure to read it) runs {@code ended} once before the transport is told, so that the server can
 * finish the requests it has before the transport closes the session.
 */
final class MessageLines extends InputStream {
    private final InputStream in;
    private final int max;
    private final MessageCheck check;
    private final Runnable ended;
    private final byte[] buf = new byte[1 << 16];
    private int bufPos;
    private int bufLim;
    /** The line being read, its first {@code max} bytes at most. */
    private byte[] acc = new byte[1 << 10];
    private int accLen;
    private byte[] line = new byte[0];
    private int pos;
    private boolean eof;
    private boolean endedRun;

    MessageLines(InputStream in, int max, MessageCheck check, Runnable ended) {
        this.in = in;
        this.max = max;
        this.check = check;
        this.ended = ended;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (pos == line.length && !next()) {
            return -1;
        }
        int n = Math.min(len, line.length - pos);
        System.arraycopy(line, pos, b, off, n);
        pos += n;
        return n;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    /** Reads lines until one passes the check; false at the end of the stream. */
    private boolean next() throws IOException {
        while (true) {
            long size = eof ? -1 : readLine();
            if (size < 0) {
                end();
                return false;
            }
            if (size > max) {
                check.tooLong(acc, accLen, size);
                continue;
            }
            byte[] pass = check.check(acc, accLen);
            if (pass != null) {
                line = pass;
                pos = 0;
                return true;
            }
        }
    }

    /**
     * Reads one line into {@code acc} (without its newline, at most {@code max} bytes kept); its whole size, or -1
     * at the end of the stream with nothing read.
     */
    private long readLine() throws IOException {
        accLen = 0;
        long size = 0;
        while (true) {
            if (bufPos == bufLim) {
                int n;
                try {
                    n = in.read(buf, 0, buf.length);
                } catch (IOException e) {
                    end();
                    throw e;
                }
                if (n < 0) {
                    eof = true;
                    return size == 0 ? -1 : size;
                }
                bufPos = 0;
                bufLim = n;
            }
            int from = bufPos;
            while (bufPos < bufLim && buf[bufPos] != '\n') {
                bufPos++;
            }
            int chunk = bufPos - from;
            keep(from, chunk);
            size += chunk;
            if (bufPos < bufLim) {
                bufPos++;
                return size;
            }
        }
    }

    private void keep(int from, int chunk) {
        int room = Math.min(chunk, max - accLen);
        if (room <= 0) {
            return;
        }
        if (accLen + room > acc.length) {
            acc = Arrays.copyOf(acc, Math.min(max, Math.max(acc.length * 2, accLen + room)));
        }
        System.arraycopy(buf, from, acc, accLen, room);
        accLen += room;
    }

    private void end() {
        eof = true;
        if (!endedRun) {
            endedRun = true;
            ended.run();
        }
    }
}

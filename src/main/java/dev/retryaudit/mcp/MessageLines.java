package dev.retryaudit.mcp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * The client's stream of newline-delimited JSON-RPC messages, as the SDK's stdio transport reads it, with two
 * guards: a message longer than {@code max} bytes (which the transport would answer by closing the session) is
 * dropped and replaced by a notification the server ignores, after {@code dropped} is told; and the end of the
 * stream (or a failure to read it) calls {@code ended}, which ends the server.
 */
final class MessageLines extends InputStream {
    /** What stands in for a dropped message: a notification no server handles, so nothing is answered. */
    static final String STAND_IN = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/retry-audit/message-dropped\"}\n";

    private final InputStream in;
    private final int max;
    private final Consumer<Long> dropped;
    private final Runnable ended;
    private byte[] line = new byte[0];
    private int pos;
    private boolean eof;

    MessageLines(InputStream in, int max, Consumer<Long> dropped, Runnable ended) {
        this.in = in;
        this.max = max;
        this.dropped = dropped;
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

    /** Reads the next message; false at the end of the stream. */
    private boolean next() throws IOException {
        if (eof) {
            return false;
        }
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        long size = 0;
        int c;
        try {
            while ((c = in.read()) >= 0) {
                size++;
                if (size <= max) {
                    buf.write(c);
                }
                if (c == '\n') {
                    break;
                }
            }
        } catch (IOException e) {
            eof = true;
            ended.run();
            throw e;
        }
        if (c < 0) {
            eof = true;
            ended.run();
            if (size == 0) {
                return false;
            }
        }
        if (size > max) {
            dropped.accept(size);
            line = STAND_IN.getBytes(StandardCharsets.UTF_8);
        } else {
            line = buf.toByteArray();
        }
        pos = 0;
        return true;
    }
}

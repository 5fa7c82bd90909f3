package dev.retryaudit.mcp;

import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.TimeUnit;

/**
 * The server's stdout, shared by the SDK's transport (which writes each message as one locked write of its JSON
 * and a newline, holding this object's lock) and the replies the server gives before a line reaches the SDK. It
 * counts the SDK's messages, so that the server can wait, when its input ends, until every request it handed on
 * has been answered.
 */
final class Outbox extends OutputStream {
    private final OutputStream out;
    /** The SDK's messages written so far; guarded by this. */
    private long answered;

    Outbox(OutputStream out) {
        this.out = out;
    }

    @Override
    public synchronized void write(int b) throws IOException {
        out.write(b);
        if (b == '\n') {
            counted(1);
        }
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
        int lines = 0;
        for (int i = off; i < off + len; i++) {
            if (b[i] == '\n') {
                lines++;
            }
        }
        counted(lines);
    }

    @Override
    public synchronized void flush() throws IOException {
        out.flush();
    }

    /** Writes one message of the server's own ({@code json}, one line without its newline); not counted. */
    synchronized void reply(byte[] json) throws IOException {
        out.write(json);
        out.write('\n');
        out.flush();
    }

    /** Waits until the SDK has written {@code n} messages or {@code deadline} (a nano time) passes; whether it did. */
    synchronized boolean await(long n, long deadline) throws InterruptedException {
        while (answered < n) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    private void counted(int lines) {
        if (lines > 0) {
            answered += lines;
            notifyAll();
        }
    }
}

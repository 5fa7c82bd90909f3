package dev.retryaudit.mcp;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The files the tools read, each for at most a bounded time ({@code --read-timeout}): when the time is up, or the
 * server stops, the file's channel is closed, which ends a read blocked in it, and the call fails with a message
 * that says why. So no call can hold a tool worker for longer than the bound, whatever the file does.
 */
final class Reads implements Closeable {
    private final Duration bound;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "mcp-read-timer");
        t.setDaemon(true);
        return t;
    });
    /** The open channels, each with why it was stopped (null while it is not). */
    private final Map<SeekableByteChannel, AtomicReference<String>> open = new ConcurrentHashMap<>();

    Reads(Duration bound) {
        this.bound = bound;
    }

    /** {@code ch} as a stream that fails once it has been read for longer than the bound. */
    InputStream stream(SeekableByteChannel ch) {
        AtomicReference<String> stopped = new AtomicReference<>();
        open.put(ch, stopped);
        ScheduledFuture<?> alarm = timer.schedule(() -> stop(ch, stopped, "reading it took longer than "
                + bound.toSeconds() + " s, the most one call may read for (mcp --read-timeout)"),
                bound.toMillis(), TimeUnit.MILLISECONDS);
        InputStream in = Channels.newInputStream(ch);
        return new InputStream() {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                check();
                try {
                    return in.read(b, off, len);
                } catch (IOException e) {
                    check();
                    throw e;
                }
            }

            private void check() throws IOException {
                String why = stopped.get();
                if (why != null) {
                    throw new IOException(why);
                }
            }

            @Override
            public void close() {
                alarm.cancel(false);
                open.remove(ch);
                closeQuietly(ch);
            }
        };
    }

    /** Stops every read still going: the server is stopping. */
    void stopAll() {
        open.forEach((ch, stopped) -> stop(ch, stopped, "the server stopped (its input ended) before the file was read"));
    }

    @Override
    public void close() {
        stopAll();
        timer.shutdownNow();
    }

    private static void stop(SeekableByteChannel ch, AtomicReference<String> stopped, String why) {
        stopped.compareAndSet(null, why);
        closeQuietly(ch);
    }

    private static void closeQuietly(SeekableByteChannel ch) {
        try {
            ch.close();
        } catch (IOException e) {
            // Closed for reading only; nothing is lost.
        }
    }
}

package dev.retryaudit.serve;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The Zipkin v2 JSON bodies {@code serve} holds until they go idle, as received, spliced into one array
 * of their spans to be read as one file. Not thread-safe: the receiver holds its lock.
 */
final class ZipkinBodies {
    private final List<byte[]> bodies = new ArrayList<>();
    private long spans;
    private long last;

    /** Holds {@code body}, of {@code count} spans, received at {@code now}. */
    void hold(byte[] body, long count, long now) {
        bodies.add(body);
        spans += count;
        last = now;
    }

    /** Spans held now. */
    long spans() {
        return spans;
    }

    boolean isEmpty() {
        return bodies.isEmpty();
    }

    /** Whether bodies are held and none came in the last {@code idleNanos} before {@code now}. */
    boolean idle(long now, long idleNanos) {
        return !bodies.isEmpty() && now - last >= idleNanos;
    }

    /** The bodies held, as one array of their spans, let go. */
    byte[] take() {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        all.write('[');
        for (byte[] body : bodies) {
            int start = indexOf(body, '[') + 1;
            int end = lastIndexOf(body, ']');
            if (end > start && !blank(body, start, end)) {
                if (all.size() > 1) {
                    all.write(',');
                }
                all.write(body, start, end - start);
            }
        }
        all.write(']');
        bodies.clear();
        spans = 0;
        return all.toByteArray();
    }

    private static int indexOf(byte[] b, char c) {
        for (int i = 0; i < b.length; i++) {
            if (b[i] == c) {
                return i;
            }
        }
        return -1;
    }

    private static int lastIndexOf(byte[] b, char c) {
        for (int i = b.length - 1; i >= 0; i--) {
            if (b[i] == c) {
                return i;
            }
        }
        return -1;
    }

    private static boolean blank(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != ' ' && b[i] != '\n' && b[i] != '\r' && b[i] != '\t') {
                return false;
            }
        }
        return true;
    }
}

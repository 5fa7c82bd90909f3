package dev.retryaudit.input.reader;

import dev.retryaudit.model.internal.InputException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Parses the chunks of a JSON Lines source on several cores and merges what they hold in line order
 * on the calling thread, so that the result is the same as one pass. A chunk that fails to parse, or
 * a read that fails, ends the parallel part: what is left from there (see {@link LineChunks#rest})
 * is for the reader to read in one pass, which words the first error exactly as always. A small
 * source (one chunk) takes that path from the start. Two to four threads parse, as many as there
 * are cores (two on one core, so that the same code runs everywhere).
 */
public final class ParallelChunks {
    private ParallelChunks() {
    }

    /** The bytes of a chunk of lines parsed on one core ({@code retryaudit.chunkBytes} sets it, for tests). */
    public static int chunkBytes() {
        return Math.max(1, Integer.getInteger("retryaudit.chunkBytes", 1 << 20));
    }

    /** Parses one chunk into what it holds; any exception sends the chunk to the one-pass reader. */
    public interface Parse<T> {
        T parse(LineChunks.Chunk chunk) throws Exception;
    }

    /** Merges what a chunk holds, chunk after chunk in line order. */
    public interface Merge<T> {
        void accept(LineChunks.Chunk chunk, T parsed) throws InputException;
    }

    /** A chunk being parsed. */
    private record Pending<T>(LineChunks.Chunk chunk, Future<T> parsed) {
    }

    /**
     * Parses and merges the chunks; returns null when all of them merged, else the rest of the
     * source from the first chunk not merged.
     */
    public static <T> InputStream run(LineChunks chunks, Parse<T> parse, Merge<T> merge)
            throws InputException, InterruptedIOException {
        int threads = Math.max(2, Math.min(Runtime.getRuntime().availableProcessors(), 4));
        LineChunks.Chunk first;
        try {
            first = chunks.next();
        } catch (java.io.IOException e) {
            return chunks.rest(List.of());
        }
        if (first == null || chunks.ended()) {
            return chunks.rest(first == null ? List.of() : List.of(first));
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "retry-audit-chunk");
            t.setDaemon(true);
            // A task's error reaches the caller through its future; one outside a task (out of memory
            // while the worker waits) must not print a stack trace: the caller reports the condition.
            t.setUncaughtExceptionHandler((thread, e) -> { });
            return t;
        });
        try {
            Deque<Pending<T>> queue = new ArrayDeque<>();
            queue.add(new Pending<>(first, pool.submit(() -> parse.parse(first))));
            boolean reading = true;
            boolean readFailed = false;
            while (true) {
                while (reading && queue.size() < 2 * threads) {
                    LineChunks.Chunk c;
                    try {
                        c = chunks.next();
                    } catch (java.io.IOException e) {
                        readFailed = true;
                        c = null;
                    }
                    if (c == null) {
                        reading = false;
                    } else {
                        LineChunks.Chunk chunk = c;
                        queue.add(new Pending<>(chunk, pool.submit(() -> parse.parse(chunk))));
                    }
                }
                Pending<T> head = queue.poll();
                if (head == null) {
                    return readFailed ? chunks.rest(List.of()) : null;
                }
                T parsed;
                try {
                    parsed = head.parsed().get();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof Error error) {
                        throw error;
                    }
                    List<LineChunks.Chunk> left = new ArrayList<>();
                    left.add(head.chunk());
                    queue.forEach(p -> left.add(p.chunk()));
                    return chunks.rest(left);
                }
                merge.accept(head.chunk(), parsed);
                chunks.recycle(head.chunk());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while reading");
        } finally {
            pool.shutdownNow();
        }
    }
}

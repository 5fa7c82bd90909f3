package dev.retryaudit.report;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Renders the items of a long list in chunks on every core and writes the chunks in list order:
 * the bytes are those of rendering the whole list on one thread, since a chunk's rendering depends
 * only on its items and the index of its first one. A short list, or a machine of one core, renders
 * on the caller's thread. At most two chunks a core are rendered ahead of the one being written, so
 * the memory held stays small however long the list. A chunk is rendered into a buffer that goes
 * back to a pool once written, so a long report allocates a few buffers, not one (or more) a chunk.
 */
final class Chunks {
    /** Items of a chunk: large enough that handing a chunk over costs little beside rendering it. */
    static final int SIZE = 4096;

    /** Renders {@code chunk}, whose first item is item {@code first} of the whole list, to {@code out}. */
    @FunctionalInterface
    interface Renderer<T> {
        void render(List<T> chunk, int first, OutputStream out) throws IOException;
    }

    private Chunks() {
    }

    static <T> void write(List<T> items, Renderer<T> renderer, OutputStream out) throws IOException {
        write(items, SIZE, Runtime.getRuntime().availableProcessors(), renderer, out);
    }

    /** As {@link #write(List, Renderer, OutputStream)}, with chunks of {@code size} items on {@code threads} threads. */
    static <T> void write(List<T> items, int size, int threads, Renderer<T> renderer, OutputStream out)
            throws IOException {
        if (items.size() <= size || threads < 2) {
            renderer.render(items, 0, out);
            return;
        }
        ExecutorService workers = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "report-chunks");
            t.setDaemon(true);
            // A task's error reaches the caller through its future; one outside a task (out of memory
            // while the worker waits) must not print a stack trace: the caller reports the condition.
            t.setUncaughtExceptionHandler((thread, e) -> { });
            return t;
        });
        ConcurrentLinkedQueue<ByteArrayOutputStream> pool = new ConcurrentLinkedQueue<>();
        try {
            Deque<Future<ByteArrayOutputStream>> ahead = new ArrayDeque<>();
            int next = 0;
            while (next < items.size() || !ahead.isEmpty()) {
                while (next < items.size() && ahead.size() < 2 * threads) {
                    int first = next;
                    List<T> chunk = items.subList(first, Math.min(items.size(), first + size));
                    ahead.add(workers.submit(() -> render(renderer, chunk, first, pool)));
                    next += chunk.size();
                }
                ByteArrayOutputStream rendered = await(ahead.poll());
                rendered.writeTo(out);
                rendered.reset();
                pool.add(rendered);
            }
        } finally {
            workers.shutdownNow();
        }
    }

    private static <T> ByteArrayOutputStream render(Renderer<T> renderer, List<T> chunk, int first, ConcurrentLinkedQueue<ByteArrayOutputStream> pool) {
        ByteArrayOutputStream bytes = pool.poll();
        if (bytes == null) {
            bytes = new ByteArrayOutputStream(chunk.size() * 256);
        }
        try {
            renderer.render(chunk, first, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes;
    }

    private static ByteArrayOutputStream await(Future<ByteArrayOutputStream> chunk) throws IOException {
        try {
            return chunk.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while writing the report");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UncheckedIOException u) {
                throw u.getCause();
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        }
    }
}

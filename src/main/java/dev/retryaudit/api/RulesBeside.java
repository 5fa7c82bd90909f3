package dev.retryaudit.api;

import dev.retryaudit.model.Operation;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.Consumer;

/**
 * Runs the rules beside the reading: the operations a reader hands on go, in batches and in order, to
 * one thread of their own that gives each to the rules ({@code rules}), so that building the next
 * operations and checking the last ones take two cores. One thread takes them, in the order handed on,
 * so the findings are those of one thread. What the rules throw is thrown again to the reader, at its
 * next operation or at {@link #finish()}; the reader's own failure ends the thread ({@link #close()}).
 */
final class RulesBeside implements Consumer<Operation>, AutoCloseable {
    /** Operations a batch: few enough that the rules start early, many enough that handing on costs little. */
    private static final int BATCH = 256;
    /** Batches in flight: what is held beyond the reader's own while the rules catch up. */
    private static final int QUEUED = 8;
    private static final Operation[] END = new Operation[0];

    private final BlockingQueue<Operation[]> queue = new ArrayBlockingQueue<>(QUEUED);
    private final Consumer<Operation> rules;
    private final Thread thread;
    private Operation[] batch = new Operation[BATCH];
    private int size;
    /** What the rules threw, for the reader to throw. */
    private volatile Throwable failure;

    RulesBeside(Consumer<Operation> rules) {
        this.rules = rules;
        this.thread = new Thread(this::run, "retry-audit-rules");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void accept(Operation op) {
        rethrow();
        batch[size++] = op;
        if (size == BATCH) {
            put(batch);
            batch = new Operation[BATCH];
            size = 0;
        }
    }

    /** Waits until the rules have seen every operation handed on; throws what they threw. */
    void finish() {
        if (size > 0) {
            put(java.util.Arrays.copyOf(batch, size));
            size = 0;
        }
        put(END);
        join();
        rethrow();
    }

    /** Ends the thread without waiting for the operations still queued (the reading failed). */
    @Override
    public void close() {
        if (thread.isAlive()) {
            thread.interrupt();
            join();
        }
    }

    private void run() {
        try {
            while (true) {
                Operation[] ops = queue.take();
                if (ops == END) {
                    return;
                }
                for (Operation op : ops) {
                    rules.accept(op);
                }
            }
        } catch (InterruptedException e) {
            // The reading failed: nothing more is wanted.
        } catch (Throwable e) {
            failure = e;
            // The reader may be waiting to queue a batch: take what it puts until it sees the failure.
            queue.clear();
        }
    }

    private void put(Operation[] ops) {
        try {
            while (!queue.offer(ops, 10, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                rethrow();
                if (!thread.isAlive()) {
                    throw new IllegalStateException("the rules' thread ended before the operations did");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while handing operations to the rules", e);
        }
    }

    private void join() {
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Throws what the rules threw, as it was. */
    private void rethrow() {
        Throwable t = failure;
        if (t instanceof RuntimeException e) {
            throw e;
        }
        if (t instanceof Error e) {
            throw e;
        }
        if (t != null) {
            throw new IllegalStateException(t);
        }
    }
}

package dev.retryaudit.serve;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes of request bodies held in memory at once, as sent and decompressed, over every request:
 * a request that would pass the budget is answered 503 with Retry-After instead of being held.
 * Thread-safe.
 */
final class BodyBudget {
    private final long max;
    private final AtomicLong used = new AtomicLong();

    BodyBudget(long max) {
        this.max = max;
    }

    /** The budget of a process: a quarter of its heap. */
    static BodyBudget ofHeap() {
        return new BodyBudget(Runtime.getRuntime().maxMemory() / 4);
    }

    /** Takes {@code n} bytes if they fit; false, taking none, if not. */
    boolean take(long n) {
        if (used.addAndGet(n) > max) {
            used.addAndGet(-n);
            return false;
        }
        return true;
    }

    /** Gives back {@code n} bytes taken. */
    void give(long n) {
        used.addAndGet(-n);
    }
}

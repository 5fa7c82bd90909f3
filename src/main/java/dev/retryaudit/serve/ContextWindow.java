package dev.retryaudit.serve;

import dev.retryaudit.input.foreign.RetryLinker;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Operation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Where a window of a busy context is cut: its operations, linked, that closed (their last send started
 * the quiet time before the context's newest span) and started before every operation still open are
 * audited; an operation that straddles that point is kept whole, with every one after it, for a later
 * window.
 */
final class ContextWindow {
    /** The operations of the window to audit, and the start (nanoseconds since the epoch) before which their spans are let go. */
    record Cut(List<RetryLinker.Linked> closed, long before) {
    }

    private ContextWindow() {
    }

    /** The cut of {@code linked}, a window whose newest span started at {@code newest}, closed by {@code quiet}. */
    static Cut cut(List<RetryLinker.Linked> linked, long newest, long quiet) {
        long[][] ranges = new long[linked.size()][];
        long cut = Long.MAX_VALUE;
        for (int i = 0; i < linked.size(); i++) {
            ranges[i] = range(linked.get(i).operation());
            if (ranges[i] == null || ranges[i][1] > newest - quiet) {
                cut = Math.min(cut, ranges[i] == null ? Long.MIN_VALUE : ranges[i][0]);
            }
        }
        // An operation that starts before the cut and ends after it moves the cut back to its start.
        for (boolean moved = true; moved; ) {
            moved = false;
            for (long[] r : ranges) {
                if (r != null && r[0] < cut && r[1] >= cut) {
                    cut = r[0];
                    moved = true;
                }
            }
        }
        List<RetryLinker.Linked> closed = new ArrayList<>();
        for (int i = 0; i < linked.size(); i++) {
            if (ranges[i] != null && ranges[i][1] < cut) {
                closed.add(linked.get(i));
            }
        }
        return new Cut(closed, cut);
    }

    /** The start of an operation's first attempt and of its last, in nanoseconds since the epoch; null when one has no time. */
    private static long[] range(Operation op) {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (Attempt a : op.attempts()) {
            Optional<Instant> at = a.startedAt();
            if (at.isEmpty()) {
                return null;
            }
            long nanos = at.get().getEpochSecond() * 1_000_000_000L + at.get().getNano();
            first = Math.min(first, nanos);
            last = Math.max(last, nanos);
        }
        return first == Long.MAX_VALUE ? null : new long[] {first, last};
    }
}

package dev.retryaudit.serve;

import dev.retryaudit.input.foreign.RetryLinker;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Operation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Where a window of a busy context is cut: at the start of the first operation still open (its last send
 * started less than the quiet time before the context's newest span). The operations that closed before
 * that point are audited and their spans let go; an operation that straddles it is kept whole, with its
 * spans, for a later window, and so is every operation after it. A busy client's operations overlap one
 * another all the time, so the point is not moved back past the operations that straddle it: only they
 * are kept.
 */
final class ContextWindow {
    /**
     * The operations of the window to audit; the start (nanoseconds since the epoch) before which the spans
     * of the window are let go, but for the spans of {@code kept}, the operations that straddle it.
     */
    record Cut(List<RetryLinker.Linked> closed, long before, Set<String> kept) {
        /** Whether the window's span {@code spanId}, which started at {@code startNanos}, is let go. */
        boolean letsGo(String spanId, long startNanos) {
            return startNanos < before && !kept.contains(spanId);
        }
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
        List<RetryLinker.Linked> closed = new ArrayList<>();
        Set<String> kept = new HashSet<>();
        for (int i = 0; i < linked.size(); i++) {
            if (ranges[i] == null) {
                continue;
            }
            if (ranges[i][1] < cut) {
                closed.add(linked.get(i));
            } else if (ranges[i][0] < cut) {
                for (Attempt a : linked.get(i).operation().attempts()) {
                    kept.add(a.spanId());
                }
            }
        }
        return new Cut(closed, cut, kept);
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

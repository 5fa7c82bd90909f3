package dev.retryaudit.spark;

import dev.retryaudit.api.split.AuditPart;
import dev.retryaudit.api.split.InputRejection;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.Location;
import java.io.Serializable;

/**
 * What auditing one partition of operations yields: a finding of a per-operation rule, a piece of a
 * cross-operation aggregate or of a source's notes to merge by key, an input error, or the facts of one operation (or of a
 * group of lines that failed to become one) that the input-wide checks and the summary need; or, before the
 * shuffle of the operations that cross partitions, one of their lines.
 */
record Item(Finding finding, AuditPart piece, InputRejection rejection, Stat stat, Crossing crossing)
        implements Serializable {
    /**
     * One group of lines: its source, where its first line is, its place among the operations of its
     * source in the order the reader hands them on, and, when it built into an operation, the
     * operation's id and location and its attempts (null and 0 when it did not).
     */
    record Stat(int source, long line, long column, long order, String id, Location at, long attempts)
            implements Serializable {
        boolean built() {
            return id != null;
        }
    }

    /** A line, as read from its file, of the operation of key {@code key} (its source and key), whose lines are in several partitions. */
    record Crossing(String key, SpanLine line) implements Serializable {
    }

    static Item of(Finding f) {
        return new Item(f, null, null, null, null);
    }

    static Item of(AuditPart p) {
        return new Item(null, p, null, null, null);
    }

    static Item of(InputRejection r) {
        return new Item(null, null, r, null, null);
    }

    static Item of(Stat s) {
        return new Item(null, null, null, s, null);
    }

    static Item of(Crossing c) {
        return new Item(null, null, null, null, c);
    }
}

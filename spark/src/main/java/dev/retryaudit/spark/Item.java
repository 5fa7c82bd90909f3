package dev.retryaudit.spark;

import dev.retryaudit.api.split.AuditPart;
import dev.retryaudit.api.split.InputRejection;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.Location;
import java.io.Serializable;

/**
 * What auditing one partition of operations yields: a finding of a per-operation rule, a piece of a
 * cross-operation aggregate or of a source's notes to merge by key, an input error, or the facts of one operation (or of a
 * group of lines that failed to become one) that the input-wide checks and the summary need.
 */
record Item(Finding finding, AuditPart piece, InputRejection rejection, Stat stat) implements Serializable {
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

    static Item of(Finding f) {
        return new Item(f, null, null, null);
    }

    static Item of(AuditPart p) {
        return new Item(null, p, null, null);
    }

    static Item of(InputRejection r) {
        return new Item(null, null, r, null);
    }

    static Item of(Stat s) {
        return new Item(null, null, null, s);
    }
}

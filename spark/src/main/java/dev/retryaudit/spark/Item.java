package dev.retryaudit.spark;

import dev.retryaudit.api.split.AuditPart;
import dev.retryaudit.api.split.InputRejection;
import dev.retryaudit.model.Finding;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * What auditing one partition of operations yields: the findings of the per-operation rules, a piece of a
 * cross-operation aggregate or of a source's notes to merge by key, an input error, or the facts of a part's
 * operations (and groups of lines that failed to become one) that the input-wide checks and the summary need;
 * or, before the shuffle of the operations that cross partitions, one of their lines.
 */
record Item(Packed<ArrayList<Finding>> findings, Packed<AuditPart> piece, InputRejection rejection,
        OperationFacts facts, Crossing crossing) implements Serializable {
    /** A line, as read from its file, of the operation of key {@code key} (its source and key), whose lines are in several partitions. */
    record Crossing(String key, SpanLine line) implements Serializable {
    }

    /** The findings of the per-operation rules of one part. */
    static Item of(List<Finding> f) {
        return new Item(Packed.of(new ArrayList<>(f)), null, null, null, null);
    }

    static Item of(AuditPart p) {
        return new Item(null, Packed.of(p), null, null, null);
    }

    static Item of(InputRejection r) {
        return new Item(null, null, r, null, null);
    }

    static Item of(OperationFacts f) {
        return new Item(null, null, null, f, null);
    }

    static Item of(Crossing c) {
        return new Item(null, null, null, null, c);
    }
}

package dev.retryaudit.input;

import dev.retryaudit.input.reader.IdTable;

/**
 * An exact set of strings, held compactly ({@link IdTable}) for the unique-id check of a whole input
 * set, where millions of ids must stay cheap to hold and for the garbage collector to trace.
 */
final class IdSet {
    private final IdTable table = new IdTable();

    /** Adds {@code s}; false when it was already a member. */
    boolean add(String s) {
        return table.put(s) >= 0;
    }

    int size() {
        return table.size();
    }
}

package dev.retryaudit.input.operations;

import java.util.function.Function;

/**
 * The operations of a spans file by id, for a reader that holds hundreds of thousands: an
 * open-addressing table of the values themselves, with no entry object per value.
 *
 * @param <V> the value, which knows its own id
 */
final class GroupIndex<V> {
    private final Function<V, String> idOf;
    private Object[] slots = new Object[1 << 10];
    private int size;

    GroupIndex(Function<V, String> idOf) {
        this.idOf = idOf;
    }

    /** The value with {@code id}, or null. */
    @SuppressWarnings("unchecked")
    V get(String id) {
        int mask = slots.length - 1;
        for (int i = spread(id.hashCode()) & mask; ; i = (i + 1) & mask) {
            Object v = slots[i];
            if (v == null || idOf.apply((V) v).equals(id)) {
                return (V) v;
            }
        }
    }

    /** Adds {@code value}, whose id is not in the index yet. */
    void add(V value) {
        if (++size * 2 > slots.length) {
            grow();
        }
        insert(slots, value);
    }

    @SuppressWarnings("unchecked")
    private void grow() {
        Object[] bigger = new Object[slots.length * 2];
        for (Object v : slots) {
            if (v != null) {
                insert(bigger, (V) v);
            }
        }
        slots = bigger;
    }

    private void insert(Object[] table, V value) {
        int mask = table.length - 1;
        int i = spread(idOf.apply(value).hashCode()) & mask;
        while (table[i] != null) {
            i = (i + 1) & mask;
        }
        table[i] = value;
    }

    private static int spread(int h) {
        return h ^ (h >>> 16) ^ (h >>> 7);
    }
}

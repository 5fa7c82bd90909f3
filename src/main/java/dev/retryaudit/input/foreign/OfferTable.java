package dev.retryaudit.input.foreign;

import dev.retryaudit.model.values.ParentRef;

/**
 * The attempts {@link ParentOffers} holds, by span key, held as numbers: a key of the form OTLP's ids are
 * written in ({@code trace/span}, 32 and 16 lower-case hex digits) as the three numbers it spells, and an offered
 * operation id of that form the same way, in arrays with no object an offer (about 80 bytes an offer against
 * about 230 as a map of records and strings); any other key or id as its string. Keys stand in the order they
 * were first offered; with a bound, the first offered goes once there are more than that many. Not thread-safe.
 */
final class OfferTable {
    private static final int TRACE = 32;
    private static final int SPAN = 16;
    private static final int LENGTH = TRACE + 1 + SPAN;

    private final int most;
    /** Per entry, in the order keys were first offered from {@link #head}, a ring once the bound is reached. */
    private long[] keys = new long[0];
    private long[] operations = new long[0];
    /** The key or operation id as a string where it is not of the numeric form, else null. */
    private String[] keyTexts = new String[0];
    private String[] operationTexts = new String[0];
    private int[] attempts = new int[0];
    private long[] orders = new long[0];
    private int head;
    private int size;
    /** Open addressing by linear probing: an entry's index plus one, 0 for a free slot. */
    private int[] index = new int[16];

    /** A table that holds at most {@code most} keys. */
    OfferTable(int most) {
        if (most < 1) {
            throw new IllegalArgumentException("most must be 1 or more: " + most);
        }
        this.most = most;
    }

    /** The keys held. */
    int size() {
        return size;
    }

    /** The attempt offered for {@code key}, or null. */
    ParentRef get(String key) {
        int e = find(key);
        if (e < 0) {
            return null;
        }
        String text = operationTexts[e];
        return new ParentRef(text != null ? text : spelled(operations, e), attempts[e]);
    }

    /**
     * Holds {@code attempt}, offered by an operation whose first span stands at {@code order}, for {@code key}: in
     * place of the one held, if any, when it {@link ParentOffers#wins wins} over it.
     */
    void offer(String key, ParentRef attempt, long order) {
        int e = find(key);
        if (e >= 0 && !ParentOffers.wins(order, orders[e])) {
            return;
        }
        if (e < 0) {
            if (size == most) {
                evictFirst();
            }
            e = append(key);
        }
        String id = attempt.operation();
        if (numeric(id)) {
            spell(id, operations, e);
            operationTexts[e] = null;
        } else {
            operationTexts[e] = id;
        }
        attempts[e] = attempt.attempt();
        orders[e] = order;
    }

    /** The entry of {@code key}, or -1. */
    private int find(String key) {
        boolean numeric = numeric(key);
        long a = 0;
        long b = 0;
        long c = 0;
        if (numeric) {
            a = Long.parseUnsignedLong(key, 0, SPAN, 16);
            b = Long.parseUnsignedLong(key, SPAN, TRACE, 16);
            c = Long.parseUnsignedLong(key, TRACE + 1, LENGTH, 16);
        }
        int mask = index.length - 1;
        for (int slot = (numeric ? hash(a, b, c) : key.hashCode() * 0x9E3779B9) & mask; ; slot = (slot + 1) & mask) {
            int e = index[slot] - 1;
            if (e < 0) {
                return -1;
            }
            if (numeric ? keyTexts[e] == null && keys[3 * e] == a && keys[3 * e + 1] == b && keys[3 * e + 2] == c
                    : key.equals(keyTexts[e])) {
                return e;
            }
        }
    }

    /** Adds {@code key}, absent, as the newest entry: its index. */
    private int append(String key) {
        if (size == attempts.length) {
            grow();
        }
        int e = (head + size) % attempts.length;
        size++;
        if (numeric(key)) {
            spell(key, keys, e);
            keyTexts[e] = null;
        } else {
            keyTexts[e] = key;
        }
        if (2 * size > index.length) {
            rehash(2 * index.length);
        } else {
            place(e);
        }
        return e;
    }

    /** Lets the first key offered go. */
    private void evictFirst() {
        int e = head;
        int mask = index.length - 1;
        int slot = slotOf(e) & mask;
        while (index[slot] - 1 != e) {
            slot = (slot + 1) & mask;
        }
        // Backward-shift deletion: later entries of the probe run move up into the freed slot.
        int free = slot;
        for (int next = (free + 1) & mask; index[next] != 0; next = (next + 1) & mask) {
            int home = slotOf(index[next] - 1) & mask;
            if (((next - home) & mask) >= ((next - free) & mask)) {
                index[free] = index[next];
                free = next;
            }
        }
        index[free] = 0;
        keyTexts[e] = null;
        operationTexts[e] = null;
        head = (head + 1) % attempts.length;
        size--;
    }

    /** Room for more entries, up to the bound, in first-offered order from index 0. */
    private void grow() {
        int old = attempts.length;
        int capacity = (int) Math.min(most, Math.max(16L, 2L * old));
        long[] newKeys = new long[3 * capacity];
        long[] newOperations = new long[3 * capacity];
        String[] newKeyTexts = new String[capacity];
        String[] newOperationTexts = new String[capacity];
        int[] newAttempts = new int[capacity];
        long[] newOrders = new long[capacity];
        for (int i = 0; i < size; i++) {
            int e = (head + i) % old;
            System.arraycopy(keys, 3 * e, newKeys, 3 * i, 3);
            System.arraycopy(operations, 3 * e, newOperations, 3 * i, 3);
            newKeyTexts[i] = keyTexts[e];
            newOperationTexts[i] = operationTexts[e];
            newAttempts[i] = attempts[e];
            newOrders[i] = orders[e];
        }
        keys = newKeys;
        operations = newOperations;
        keyTexts = newKeyTexts;
        operationTexts = newOperationTexts;
        attempts = newAttempts;
        orders = newOrders;
        head = 0;
        rehash(index.length);
    }

    private void rehash(int slots) {
        index = new int[slots];
        for (int i = 0; i < size; i++) {
            place((head + i) % attempts.length);
        }
    }

    private void place(int e) {
        int mask = index.length - 1;
        int slot = slotOf(e) & mask;
        while (index[slot] != 0) {
            slot = (slot + 1) & mask;
        }
        index[slot] = e + 1;
    }

    private int slotOf(int e) {
        String text = keyTexts[e];
        return text != null ? text.hashCode() * 0x9E3779B9 : hash(keys[3 * e], keys[3 * e + 1], keys[3 * e + 2]);
    }

    private static int hash(long a, long b, long c) {
        long h = (a * 31 + b) * 31 + c;
        h *= 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    /** Whether {@code s} is of the form {@code trace/span} of 32 and 16 lower-case hex digits. */
    private static boolean numeric(String s) {
        if (s.length() != LENGTH || s.charAt(TRACE) != '/') {
            return false;
        }
        for (int i = 0; i < LENGTH; i++) {
            char c = s.charAt(i);
            if (i != TRACE && (c < '0' || c > '9') && (c < 'a' || c > 'f')) {
                return false;
            }
        }
        return true;
    }

    private static void spell(String s, long[] into, int e) {
        into[3 * e] = Long.parseUnsignedLong(s, 0, SPAN, 16);
        into[3 * e + 1] = Long.parseUnsignedLong(s, SPAN, TRACE, 16);
        into[3 * e + 2] = Long.parseUnsignedLong(s, TRACE + 1, LENGTH, 16);
    }

    /** The {@code trace/span} string the numbers of entry {@code e} spell. */
    private static String spelled(long[] from, int e) {
        char[] out = new char[LENGTH];
        hex(from[3 * e], out, 0);
        hex(from[3 * e + 1], out, SPAN);
        out[TRACE] = '/';
        hex(from[3 * e + 2], out, TRACE + 1);
        return new String(out);
    }

    private static void hex(long v, char[] out, int at) {
        for (int i = SPAN - 1; i >= 0; i--) {
            out[at + i] = Character.forDigit((int) (v & 0xF), 16);
            v >>>= 4;
        }
    }
}

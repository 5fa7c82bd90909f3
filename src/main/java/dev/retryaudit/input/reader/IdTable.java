package dev.retryaudit.input.reader;

import java.util.Arrays;

/**
 * Strings numbered in the order first put, held compactly for a reader or an input set that keeps
 * hundreds of thousands of ids: the characters of every entry in one growing array, found through an
 * open-addressing table of entry numbers. A few large arrays instead of a string (two objects) per
 * entry keep millions of ids cheap to hold and, above all, cheap for the garbage collector to trace.
 */
public final class IdTable {
    private static final int MAX_ARRAY = Integer.MAX_VALUE - 8;

    private char[] chars = new char[1 << 6];
    private int used;
    private int[] starts = new int[1 << 3];
    private int[] lengths = new int[1 << 3];
    private int[] hashes = new int[1 << 3];
    private int size;
    /** Entry number + 1 per slot; 0 marks an empty slot. Its length is a power of two. */
    private int[] slots = new int[1 << 4];

    /** Puts {@code s}: its new entry number when it was not an entry yet, else {@code -(entry + 1)} of the one it equals. */
    public int put(String s) {
        int hash = mix(s.hashCode());
        int mask = slots.length - 1;
        for (int i = hash & mask;; i = (i + 1) & mask) {
            int entry = slots[i] - 1;
            if (entry < 0) {
                int added = append(s, hash);
                slots[i] = added + 1;
                if (size * 2 > slots.length) {
                    rehash();
                }
                return added;
            }
            if (hashes[entry] == hash && equalsEntry(entry, s)) {
                return -(entry + 1);
            }
        }
    }

    /** The string of {@code entry}, made anew. */
    public String get(int entry) {
        return new String(chars, starts[entry], lengths[entry]);
    }

    /** How many entries there are. */
    public int size() {
        return size;
    }

    private boolean equalsEntry(int entry, String s) {
        int length = lengths[entry];
        if (length != s.length()) {
            return false;
        }
        int start = starts[entry];
        for (int k = 0; k < length; k++) {
            if (chars[start + k] != s.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    private int append(String s, int hash) {
        long needed = (long) used + s.length();
        if (needed > chars.length) {
            if (needed > MAX_ARRAY) {
                throw new IllegalStateException("more id text than one array holds: " + needed + " characters");
            }
            chars = Arrays.copyOf(chars, (int) Math.min(MAX_ARRAY, Math.max(2L * chars.length, needed)));
        }
        s.getChars(0, s.length(), chars, used);
        if (size == starts.length) {
            starts = Arrays.copyOf(starts, size * 2);
            lengths = Arrays.copyOf(lengths, size * 2);
            hashes = Arrays.copyOf(hashes, size * 2);
        }
        starts[size] = used;
        lengths[size] = s.length();
        hashes[size] = hash;
        used += s.length();
        return size++;
    }

    private void rehash() {
        int[] bigger = new int[slots.length * 2];
        int mask = bigger.length - 1;
        for (int entry = 0; entry < size; entry++) {
            int i = hashes[entry] & mask;
            while (bigger[i] != 0) {
                i = (i + 1) & mask;
            }
            bigger[i] = entry + 1;
        }
        slots = bigger;
    }

    /** Spreads String.hashCode's bits so that linear probing does not cluster on similar ids. */
    private static int mix(int h) {
        h *= 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}

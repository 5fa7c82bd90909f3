package dev.retryaudit.json;

import java.util.Arrays;

/**
 * Shares one instance among equal short strings (tool names, methods, targets, run ids, retry
 * reasons, enum values) for a reader that must hold a whole file's attempts, or reads a value of a
 * few kinds again and again: a string already pooled is found from the parser's characters
 * without making a new one. Bounded: past its capacity it returns strings unshared.
 */
public final class StringPool {
    private static final int MAX_LENGTH = 256;
    private final int capacity;
    private String[] slots = new String[64];
    /** Each slot's characters, compared with the parser's in one vectorised call. */
    private char[][] chars = new char[64][];
    /** Each slot's hash code, to pass over most other strings without looking at them. */
    private int[] hashes = new int[64];
    private int size;

    public StringPool(int capacity) {
        this.capacity = capacity;
    }

    public String share(String s) {
        if (s == null || s.length() > MAX_LENGTH) {
            return s;
        }
        int h = s.hashCode();
        int mask = slots.length - 1;
        int i = spread(h) & mask;
        for (String v; (v = slots[i]) != null; i = (i + 1) & mask) {
            if (hashes[i] == h && v.equals(s)) {
                return v;
            }
        }
        add(i, s, h, s.toCharArray());
        return s;
    }

    /** The string of {@code length} characters of {@code chars} from {@code offset}, made only when not pooled yet. */
    public String share(char[] text, int offset, int length) {
        if (length > MAX_LENGTH) {
            return new String(text, offset, length);
        }
        int h = 0;
        for (int k = offset; k < offset + length; k++) {
            h = 31 * h + text[k];
        }
        int mask = slots.length - 1;
        int i = spread(h) & mask;
        for (String v; (v = slots[i]) != null; i = (i + 1) & mask) {
            if (hashes[i] == h && Arrays.equals(chars[i], 0, chars[i].length, text, offset, offset + length)) {
                return v;
            }
        }
        String s = new String(text, offset, length);
        add(i, s, h, Arrays.copyOfRange(text, offset, offset + length));
        return s;
    }

    private void add(int slot, String s, int hash, char[] characters) {
        if (size >= capacity) {
            return;
        }
        slots[slot] = s;
        hashes[slot] = hash;
        chars[slot] = characters;
        if (++size * 2 > slots.length) {
            String[] oldSlots = slots;
            int[] oldHashes = hashes;
            char[][] oldChars = chars;
            slots = new String[oldSlots.length * 2];
            hashes = new int[slots.length];
            chars = new char[slots.length][];
            int mask = slots.length - 1;
            for (int k = 0; k < oldSlots.length; k++) {
                if (oldSlots[k] != null) {
                    int i = spread(oldHashes[k]) & mask;
                    while (slots[i] != null) {
                        i = (i + 1) & mask;
                    }
                    slots[i] = oldSlots[k];
                    hashes[i] = oldHashes[k];
                    chars[i] = oldChars[k];
                }
            }
        }
    }

    private static int spread(int h) {
        return h ^ (h >>> 16);
    }
}

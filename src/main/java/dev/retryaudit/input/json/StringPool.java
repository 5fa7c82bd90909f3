package dev.retryaudit.input.json;

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
            if (v.hashCode() == h && v.equals(s)) {
                return v;
            }
        }
        add(i, s);
        return s;
    }

    /** The string of {@code length} characters of {@code chars} from {@code offset}, made only when not pooled yet. */
    public String share(char[] chars, int offset, int length) {
        if (length > MAX_LENGTH) {
            return new String(chars, offset, length);
        }
        int h = 0;
        for (int k = offset; k < offset + length; k++) {
            h = 31 * h + chars[k];
        }
        int mask = slots.length - 1;
        int i = spread(h) & mask;
        for (String v; (v = slots[i]) != null; i = (i + 1) & mask) {
            if (v.hashCode() == h && same(v, chars, offset, length)) {
                return v;
            }
        }
        String s = new String(chars, offset, length);
        add(i, s);
        return s;
    }

    private void add(int slot, String s) {
        if (size >= capacity) {
            return;
        }
        slots[slot] = s;
        if (++size * 2 > slots.length) {
            String[] old = slots;
            slots = new String[old.length * 2];
            int mask = slots.length - 1;
            for (String v : old) {
                if (v != null) {
                    int i = spread(v.hashCode()) & mask;
                    while (slots[i] != null) {
                        i = (i + 1) & mask;
                    }
                    slots[i] = v;
                }
            }
        }
    }

    private static boolean same(String s, char[] chars, int offset, int length) {
        if (s.length() != length) {
            return false;
        }
        for (int k = 0; k < length; k++) {
            if (s.charAt(k) != chars[offset + k]) {
                return false;
            }
        }
        return true;
    }

    private static int spread(int h) {
        return h ^ (h >>> 16);
    }
}

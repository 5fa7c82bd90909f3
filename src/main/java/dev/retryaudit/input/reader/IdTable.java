package dev.retryaudit.input.reader;

import java.util.Arrays;

/**
 * Strings numbered in the order first put, held compactly for a reader or an input set that keeps
 * hundreds of thousands of ids: the characters of the entries in blocks of a fixed size, found
 * through an open-addressing table of entry numbers. A few large arrays instead of a string (two
 * objects) per entry keep millions of ids cheap to hold and, above all, cheap for the garbage
 * collector to trace; blocks are filled, never copied to grow.
 */
public final class IdTable {
    private static final int BLOCK = 1 << 15;
    /** An entry longer than this gets a block of its own, so that blocks are not left mostly empty. */
    private static final int OWN_BLOCK = BLOCK >> 2;

    private char[][] blocks = new char[4][];
    private int blockCount;
    /** The block being filled, and its number. */
    private char[] block = new char[0];
    private int blockNumber = -1;
    private int used;
    /** Per entry: its block, where it starts there, its length. */
    private int[] blockOf = new int[1 << 3];
    private int[] starts = new int[1 << 3];
    private int[] lengths = new int[1 << 3];
    private int size;
    /**
     * Two ints a slot: entry number + 1 (0 marks an empty slot) and the entry's hash, so that a probe
     * reads the entry's text only when the hashes agree. The number of slots is a power of two.
     */
    private int[] slots = new int[2 << 4];

    /** Puts {@code s}: its new entry number when it was not an entry yet, else {@code -(entry + 1)} of the one it equals. */
    public int put(String s) {
        return put(s, null, s.length(), s.hashCode());
    }

    /**
     * Puts the first {@code length} characters of {@code chars}, whose {@link String#hashCode()} would be
     * {@code stringHash}, as {@link #put(String)} puts their string.
     */
    public int put(char[] chars, int length, int stringHash) {
        return put(null, chars, length, stringHash);
    }

    /** Puts {@code s}, or else the {@code length} first of {@code text}. */
    private int put(String s, char[] text, int length, int stringHash) {
        int hash = mix(stringHash);
        int mask = (slots.length >> 1) - 1;
        for (int i = hash & mask;; i = (i + 1) & mask) {
            int entry = slots[2 * i] - 1;
            if (entry < 0) {
                int added = append(s, text, length);
                slots[2 * i] = added + 1;
                slots[2 * i + 1] = hash;
                if (size > slots.length >> 2) {
                    rehash();
                }
                return added;
            }
            if (slots[2 * i + 1] == hash && equalsEntry(entry, s, text, length)) {
                return -(entry + 1);
            }
        }
    }

    /** The string of {@code entry}, made anew. */
    public String get(int entry) {
        return new String(blocks[blockOf[entry]], starts[entry], lengths[entry]);
    }

    /** How many entries there are. */
    public int size() {
        return size;
    }

    private boolean equalsEntry(int entry, String s, char[] text, int length) {
        if (length != lengths[entry]) {
            return false;
        }
        char[] chars = blocks[blockOf[entry]];
        int start = starts[entry];
        for (int k = 0; k < length; k++) {
            if (chars[start + k] != (s != null ? s.charAt(k) : text[k])) {
                return false;
            }
        }
        return true;
    }

    private int append(String s, char[] text, int length) {
        char[] into;
        int number;
        int at;
        if (length > OWN_BLOCK) {
            into = new char[length];
            number = addBlock(into);
            at = 0;
        } else {
            if (used + length > block.length) {
                block = new char[BLOCK];
                blockNumber = addBlock(block);
                used = 0;
            }
            into = block;
            number = blockNumber;
            at = used;
            used += length;
        }
        if (s != null) {
            s.getChars(0, length, into, at);
        } else {
            System.arraycopy(text, 0, into, at, length);
        }
        if (size == starts.length) {
            int grown = size + (size >> 1);
            blockOf = Arrays.copyOf(blockOf, grown);
            starts = Arrays.copyOf(starts, grown);
            lengths = Arrays.copyOf(lengths, grown);
        }
        blockOf[size] = number;
        starts[size] = at;
        lengths[size] = length;
        return size++;
    }

    /** Adds a block; returns its number. */
    private int addBlock(char[] b) {
        if (blockCount == blocks.length) {
            blocks = Arrays.copyOf(blocks, 2 * blockCount);
        }
        blocks[blockCount] = b;
        return blockCount++;
    }

    private void rehash() {
        int[] bigger = new int[slots.length * 2];
        int mask = (bigger.length >> 1) - 1;
        for (int old = 0; old < slots.length; old += 2) {
            if (slots[old] != 0) {
                int i = slots[old + 1] & mask;
                while (bigger[2 * i] != 0) {
                    i = (i + 1) & mask;
                }
                bigger[2 * i] = slots[old];
                bigger[2 * i + 1] = slots[old + 1];
            }
        }
        slots = bigger;
    }

    /** Spreads String.hashCode's bits so that linear probing does not cluster on similar ids. */
    private static int mix(int h) {
        h *= 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}

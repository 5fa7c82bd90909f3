package dev.retryaudit.input.reader;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Strings numbered in the order first put, held compactly for a reader or an input set that keeps
 * hundreds of thousands of ids: the characters of the entries in byte blocks of a fixed size (one
 * byte a character when all are Latin-1, as compact strings hold them, else two), found through an
 * open-addressing table of entry numbers. A few large arrays instead of a string (two
 * objects) per entry keep millions of ids cheap to hold and, above all, cheap for the garbage
 * collector to trace; blocks are filled, never copied to grow.
 */
public final class IdTable {
    private static final int BLOCK = 1 << 15;
    /** An entry longer than this gets a block of its own, so that blocks are not left mostly empty. */
    private static final int OWN_BLOCK = BLOCK >> 2;
    /**
     * The first block's size; each next one doubles up to {@link #BLOCK}, so that a table of a few ids
     * (one operation's, built on its own) does not cost a full block.
     */
    private static final int FIRST_BLOCK = 1 << 8;

    private byte[][] blocks = new byte[4][];
    private int blockCount;
    /** The block being filled, and its number. */
    private byte[] block;
    private int blockNumber = -1;
    private int used;
    /** Per entry: its block, where it starts there, its length in characters (negated for two bytes a character). */
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
        byte[] bytes = blocks[blockOf[entry]];
        int start = starts[entry];
        int length = lengths[entry];
        if (length >= 0) {
            return new String(bytes, start, length, StandardCharsets.ISO_8859_1);
        }
        char[] chars = new char[-length];
        for (int k = 0; k < chars.length; k++) {
            chars[k] = wide(bytes, start, k);
        }
        return new String(chars);
    }

    /** How many entries there are. */
    public int size() {
        return size;
    }

    private boolean equalsEntry(int entry, String s, char[] text, int length) {
        int held = lengths[entry];
        if (length != (held >= 0 ? held : -held)) {
            return false;
        }
        byte[] bytes = blocks[blockOf[entry]];
        int start = starts[entry];
        for (int k = 0; k < length; k++) {
            char c = held >= 0 ? (char) (bytes[start + k] & 0xFF) : wide(bytes, start, k);
            if (c != (s != null ? s.charAt(k) : text[k])) {
                return false;
            }
        }
        return true;
    }

    /** Character {@code k} of an entry held two bytes a character from {@code start}. */
    private static char wide(byte[] bytes, int start, int k) {
        return (char) ((bytes[start + 2 * k] & 0xFF) << 8 | bytes[start + 2 * k + 1] & 0xFF);
    }

    private int append(String s, char[] text, int length) {
        boolean latin1 = true;
        for (int k = 0; k < length && latin1; k++) {
            latin1 = (s != null ? s.charAt(k) : text[k]) < 0x100;
        }
        int bytes = latin1 ? length : 2 * length;
        byte[] into;
        int number;
        int at;
        if (bytes > OWN_BLOCK) {
            into = new byte[bytes];
            number = addBlock(into);
            at = 0;
        } else {
            if (blockNumber < 0 || used + bytes > block.length) {
                block = new byte[Math.max(bytes, Math.min(BLOCK, FIRST_BLOCK << Math.min(blockCount, 7)))];
                blockNumber = addBlock(block);
                used = 0;
            }
            into = block;
            number = blockNumber;
            at = used;
            used += bytes;
        }
        for (int k = 0; k < length; k++) {
            char c = s != null ? s.charAt(k) : text[k];
            if (latin1) {
                into[at + k] = (byte) c;
            } else {
                into[at + 2 * k] = (byte) (c >>> 8);
                into[at + 2 * k + 1] = (byte) c;
            }
        }
        if (size == starts.length) {
            int grown = size + (size >> 1);
            blockOf = Arrays.copyOf(blockOf, grown);
            starts = Arrays.copyOf(starts, grown);
            lengths = Arrays.copyOf(lengths, grown);
        }
        blockOf[size] = number;
        starts[size] = at;
        lengths[size] = latin1 ? length : -length;
        return size++;
    }

    /** Adds a block; returns its number. */
    private int addBlock(byte[] b) {
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

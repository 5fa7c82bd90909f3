package dev.retryaudit.serve;

import java.util.ArrayList;
import java.util.List;

/**
 * Bytes kept in blocks of {@value #BLOCK} as they come (a body being decompressed), each block taken from a
 * {@link BodyBudget} first: no array is ever grown and copied, and once the budget refuses a block the
 * bytes are counted and dropped. Not thread-safe.
 */
final class Blocks {
    static final int BLOCK = 64 * 1024;

    private final BodyBudget budget;
    private final List<byte[]> blocks = new ArrayList<>();
    private long taken;
    private int fill = BLOCK;
    private long size;
    private boolean dropped;

    Blocks(BodyBudget budget) {
        this.budget = budget;
    }

    /** Keeps the first {@code n} bytes of {@code b}, or counts them when the budget is full. */
    void write(byte[] b, int n) {
        write(java.nio.ByteBuffer.wrap(b, 0, n));
    }

    /** Keeps the bytes remaining in {@code b}, or counts them when the budget is full; {@code b} is read to its end. */
    void write(java.nio.ByteBuffer b) {
        int n = b.remaining();
        size += n;
        int off = 0;
        while (!dropped && off < n) {
            if (fill == BLOCK) {
                if (!budget.take(BLOCK)) {
                    dropped = true;
                    b.position(b.limit());
                    return;
                }
                taken += BLOCK;
                blocks.add(new byte[BLOCK]);
                fill = 0;
            }
            int k = Math.min(n - off, BLOCK - fill);
            b.get(blocks.get(blocks.size() - 1), fill, k);
            fill += k;
            off += k;
        }
    }

    /** The bytes written, kept or not. */
    long size() {
        return size;
    }

    /** Whether the budget refused a block: bytes were dropped. */
    boolean dropped() {
        return dropped;
    }

    /**
     * The bytes kept as one array, which holds its length of the budget (given back by the caller), or null when
     * some were dropped or the budget has no room for the array.
     */
    byte[] whole() {
        if (dropped || size > Integer.MAX_VALUE - 8 || !budget.take(size)) {
            return null;
        }
        byte[] all = new byte[(int) size];
        int at = 0;
        for (byte[] block : blocks) {
            int k = (int) Math.min(BLOCK, size - at);
            System.arraycopy(block, 0, all, at, k);
            at += k;
        }
        release();
        return all;
    }

    /** Gives back the budget of the blocks; they are dropped. */
    void release() {
        blocks.clear();
        budget.give(taken);
        taken = 0;
    }
}

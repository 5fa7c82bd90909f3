package dev.retryaudit.input.operations;

import dev.retryaudit.input.reader.IdTable;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.CommitState;
import dev.retryaudit.model.CommitStateSource;
import dev.retryaudit.model.ErrorClass;
import dev.retryaudit.model.GrpcStatus;
import dev.retryaudit.model.Outcome;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The attempts of a whole spans file, held in columns until the file's last line: primitives for
 * numbers, times, enums and the line, a byte arena for span ids, idempotency keys held once each
 * ({@link IdTable}), shared retry reasons, and one small object only for an attempt with a rare
 * field. No {@link Attempt} or {@code Location} exists until {@link #build} is asked for one. Rows are
 * numbered from 0 in the order added; each row links to the next row of its operation.
 */
final class HeldAttempts {
    private static final int PAGE_BITS = 13;
    private static final int PAGE = 1 << PAGE_BITS;
    private static final int MASK = PAGE - 1;
    /** Span id lengths with a meaning of their own: absent, or kept as a string in {@link #otherSpanIds}. */
    private static final short NO_SPAN_ID = -1;
    private static final short OTHER_SPAN_ID = -2;
    /** Arenas of 1 MiB each (the first one grows to it), addressed by 11 bits of arena and 20 bits of offset. */
    private static final int ARENA = 1 << 20;
    private static final int MAX_ARENAS = 1 << 11;
    private static final Outcome[] OUTCOMES = Outcome.values();
    private static final ErrorClass[] ERROR_CLASSES = ErrorClass.values();
    private static final CommitState[] COMMIT_STATES = CommitState.values();
    private static final CommitStateSource[] COMMIT_SOURCES = CommitStateSource.values();

    /** The fields few attempts carry. */
    private record Rare(String retryAfter, String responseDate, String requestHash, String attributes,
            GrpcStatus grpcStatus, String retryPushback) {
    }

    /** Up to {@link #PAGE} rows of every column; the first page starts small and grows, for the few attempts of one operation. */
    private static final class Page {
        int[] attemptId;
        long[] startedAt;
        long[] endedAt;
        double[] durationMs;
        long[] line;
        /** The column of the attempt's object, as the parser counts it (in an int). */
        int[] column;
        short[] status;
        /** Outcome, error class, commit state and its source: ordinal + 1 each, 0 for absent, one byte each. */
        int[] enums;
        int[] next;
        int[] spanIdAt;
        short[] spanIdLength;
        /** The idempotency key's entry in {@link #keys}, or -1. */
        int[] key;
        String[] retryReason;
        Rare[] rare;

        Page(int rows) {
            resize(rows);
        }

        int capacity() {
            return attemptId.length;
        }

        void resize(int rows) {
            attemptId = Arrays.copyOf(attemptId == null ? new int[0] : attemptId, rows);
            startedAt = Arrays.copyOf(startedAt == null ? new long[0] : startedAt, rows);
            endedAt = Arrays.copyOf(endedAt == null ? new long[0] : endedAt, rows);
            durationMs = Arrays.copyOf(durationMs == null ? new double[0] : durationMs, rows);
            line = Arrays.copyOf(line == null ? new long[0] : line, rows);
            column = Arrays.copyOf(column == null ? new int[0] : column, rows);
            status = Arrays.copyOf(status == null ? new short[0] : status, rows);
            enums = Arrays.copyOf(enums == null ? new int[0] : enums, rows);
            next = Arrays.copyOf(next == null ? new int[0] : next, rows);
            spanIdAt = Arrays.copyOf(spanIdAt == null ? new int[0] : spanIdAt, rows);
            spanIdLength = Arrays.copyOf(spanIdLength == null ? new short[0] : spanIdLength, rows);
            key = Arrays.copyOf(key == null ? new int[0] : key, rows);
            retryReason = Arrays.copyOf(retryReason == null ? new String[0] : retryReason, rows);
            rare = Arrays.copyOf(rare == null ? new Rare[0] : rare, rows);
        }
    }

    private final List<Page> pages = new ArrayList<>();
    /** The one builder of the attempts built, as {@link #build} is called for one after another. */
    private final Attempt.Builder builder = Attempt.builder();
    private final List<byte[]> arenas = new ArrayList<>();
    private final Map<Integer, String> otherSpanIds = new HashMap<>();
    /** The idempotency keys, each held once; the key built last, for the other attempts of its operation. */
    private final IdTable keys = new IdTable();
    private int lastKey = -1;
    private String lastKeyString;
    private byte[] arena = new byte[0];
    private int arenaUsed;
    private int rows;

    /**
     * Adds the attempt of {@code d} and {@code spanId} found at {@code line}:{@code column}, with its
     * idempotency key as entry {@code key} of {@link #key(String)} (-1 for none) and its shared retry
     * reason; returns its row.
     */
    int add(AttemptDraft d, LineText spanId, int key, String retryReason, long line, int column) {
        int row = rows++;
        if ((row & MASK) == 0) {
            pages.add(new Page(row == 0 ? 8 : PAGE));
        }
        Page p = pages.get(row >>> PAGE_BITS);
        int i = row & MASK;
        if (i == p.capacity()) {
            p.resize(Math.min(PAGE, 2 * i));
        }
        p.attemptId[i] = d.attemptId;
        p.startedAt[i] = d.startedAt;
        p.endedAt[i] = d.endedAt;
        p.durationMs[i] = d.durationMs;
        p.line[i] = line;
        p.column[i] = column;
        p.status[i] = (short) (d.status == null ? 0 : d.status);
        p.enums[i] = code(d.outcome()) | code(d.errorClass()) << 8 | code(d.commitState) << 16 | code(d.commitStateSource) << 24;
        p.next[i] = -1;
        p.key[i] = key;
        p.retryReason[i] = retryReason;
        if (d.retryAfter != null || d.responseDate != null || d.requestHash != null || d.attributes != null
                || d.grpcStatus != null || d.retryPushback != null) {
            p.rare[i] = new Rare(d.retryAfter, d.responseDate, d.requestHash, d.attributes, d.grpcStatus,
                    d.retryPushback);
        }
        storeSpanId(p, i, row, spanId);
        return row;
    }

    /** The entry of idempotency key {@code key} among the keys held, made when new; -1 for null. */
    int key(String key) {
        if (key == null) {
            return -1;
        }
        int entry = keys.put(key);
        return entry >= 0 ? entry : -entry - 1;
    }

    /** The idempotency key of entry {@code entry}, null for -1; the string of the last one asked for is given again. */
    String key(int entry) {
        if (entry < 0) {
            return null;
        }
        if (entry != lastKey) {
            lastKey = entry;
            lastKeyString = keys.get(entry);
        }
        return lastKeyString;
    }

    /** Links {@code row} after {@code previous} in its operation. */
    void link(int previous, int row) {
        pages.get(previous >>> PAGE_BITS).next[previous & MASK] = row;
    }

    /** The row after {@code row} in its operation, or -1. */
    int next(int row) {
        return pages.get(row >>> PAGE_BITS).next[row & MASK];
    }

    /** The attempt of {@code row}, placed in source {@code sourceIndex}, {@code source}. */
    Attempt build(int row, String source, int sourceIndex) {
        Page p = pages.get(row >>> PAGE_BITS);
        int i = row & MASK;
        int e = p.enums[i];
        Rare r = p.rare[i];
        return builder.attemptId(p.attemptId[i]).spanId(spanId(p, i, row)).idempotencyKey(key(p.key[i]))
                .startMillis(p.startedAt[i]).endMillis(p.endedAt[i]).durationMillis(p.durationMs[i])
                .outcome(decode(OUTCOMES, e)).status(p.status[i] == 0 ? null : AttemptDraft.status(p.status[i]))
                .errorClass(decode(ERROR_CLASSES, e >>> 8)).retryAfter(r == null ? null : r.retryAfter)
                .responseDate(r == null ? null : r.responseDate).commitState(decode(COMMIT_STATES, e >>> 16))
                .commitStateSource(decode(COMMIT_SOURCES, e >>> 24)).retryReason(p.retryReason[i])
                .requestHash(r == null ? null : r.requestHash).attributesJson(r == null ? null : r.attributes)
                .grpcStatus(r == null ? null : r.grpcStatus).retryPushback(r == null ? null : r.retryPushback)
                .at(source, sourceIndex, p.line[i], p.column[i]).build();
    }

    private static int code(Enum<?> e) {
        return e == null ? 0 : e.ordinal() + 1;
    }

    private static <E> E decode(E[] values, int code) {
        int c = code & 0xFF;
        return c == 0 ? null : values[c - 1];
    }

    /** Span ids of ASCII up to 255 characters go to the arena, one byte a character; any other kept as a string. */
    private void storeSpanId(Page p, int i, int row, LineText id) {
        if (!id.present()) {
            p.spanIdLength[i] = NO_SPAN_ID;
            return;
        }
        int n = id.length();
        if (n > 255 || !id.ascii() || arenaUsed + n > arena.length && arenas.size() == MAX_ARENAS) {
            p.spanIdLength[i] = OTHER_SPAN_ID;
            otherSpanIds.put(row, id.value());
            return;
        }
        if (arenaUsed + n > arena.length) {
            if (arena.length < ARENA && arenaUsed + n <= ARENA) {
                // The first arena starts small and grows to its full size.
                arena = Arrays.copyOf(arena, Math.min(ARENA, Math.max(256, 2 * (arenaUsed + n))));
                if (arenas.isEmpty()) {
                    arenas.add(arena);
                } else {
                    arenas.set(0, arena);
                }
            } else {
                arena = new byte[ARENA];
                arenas.add(arena);
                arenaUsed = 0;
            }
        }
        char[] chars = id.chars();
        for (int k = 0; k < n; k++) {
            arena[arenaUsed + k] = (byte) chars[k];
        }
        p.spanIdAt[i] = (arenas.size() - 1) << 20 | arenaUsed;
        p.spanIdLength[i] = (short) n;
        arenaUsed += n;
    }

    private String spanId(Page p, int i, int row) {
        short n = p.spanIdLength[i];
        if (n == NO_SPAN_ID) {
            return null;
        }
        if (n == OTHER_SPAN_ID) {
            return otherSpanIds.get(row);
        }
        if (n == 0) {
            // An empty id takes no arena, which may not exist yet.
            return "";
        }
        int at = p.spanIdAt[i];
        return new String(arenas.get(at >>> 20), at & ((1 << 20) - 1), n, StandardCharsets.ISO_8859_1);
    }
}

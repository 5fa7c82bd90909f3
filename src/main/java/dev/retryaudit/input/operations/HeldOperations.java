package dev.retryaudit.input.operations;

import dev.retryaudit.model.internal.LimitChecks;
import dev.retryaudit.input.reader.IdTable;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Check;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The operations of a spans file while its lines are grouped, held in columns like their attempts
 * ({@link HeldAttempts}): operations are numbered from 0 in the order of their first line, found by
 * operation_id or else by idempotency key through compact id tables, and each column holds one value
 * an operation (its first line, shared fields, run id, key, attempts), with no object per operation
 * until {@link #build} hands one on.
 */
final class HeldOperations {
    private static final OperationDraft NONE = new OperationDraft();

    /** What few operations need: checks, and the lines that set fields after the first. */
    private static final class Rare {
        /** The line that set each operation field; null while the first line set them all. */
        int[] fieldLines;
        int runIdLine;
        List<Check> checks = List.of();

        Rare(long firstLine) {
            runIdLine = lineInt(firstLine);
        }
    }

    final HeldAttempts attempts = new HeldAttempts();
    private final IdTable operationIds = new IdTable();
    private final IdTable keys = new IdTable();
    /** The operation of each entry of {@link #operationIds}, of {@link #keys}. */
    private int[] byOperationId = new int[8];
    private int[] byKey = new int[8];
    /** One instance of each combination of operation fields, shared by the operations that have it. */
    private final Map<OperationDraft, OperationDraft> drafts = new HashMap<>();

    private static final int PAGE_BITS = 12;
    private static final int PAGE = 1 << PAGE_BITS;
    private static final int MASK = PAGE - 1;

    /** Up to {@link #PAGE} operations of every column; the first page starts small and grows, for one operation. */
    private static final class Page {
        /** The entry of the operation's id: in {@link #operationIds} when at least 0, else {@code ~entry} in {@link #keys}. */
        final int[] idEntry;
        final long[] firstLine;
        /** The column of the first line's object, as the parser counts it (in an int). */
        final int[] firstColumn;
        final OperationDraft[] operation;
        final String[] runId;
        /** The operation's idempotency key (its first attempt's) as an entry of the attempts' keys, or -1. */
        final int[] key;
        final int[] attemptCount;
        final int[] firstRow;
        final int[] lastRow;
        final Rare[] rare;

        Page(int n, Page from) {
            idEntry = from == null ? new int[n] : Arrays.copyOf(from.idEntry, n);
            firstLine = from == null ? new long[n] : Arrays.copyOf(from.firstLine, n);
            firstColumn = from == null ? new int[n] : Arrays.copyOf(from.firstColumn, n);
            operation = from == null ? new OperationDraft[n] : Arrays.copyOf(from.operation, n);
            runId = from == null ? new String[n] : Arrays.copyOf(from.runId, n);
            key = from == null ? new int[n] : Arrays.copyOf(from.key, n);
            attemptCount = from == null ? new int[n] : Arrays.copyOf(from.attemptCount, n);
            firstRow = from == null ? new int[n] : Arrays.copyOf(from.firstRow, n);
            lastRow = from == null ? new int[n] : Arrays.copyOf(from.lastRow, n);
            rare = from == null ? new Rare[n] : Arrays.copyOf(from.rare, n);
        }
    }

    private Page[] pages = new Page[4];
    private int size;

    /** How many operations there are. */
    int size() {
        return size;
    }

    /** The line of operation {@code g}'s first line. */
    long firstLine(int g) {
        return pages[g >>> PAGE_BITS].firstLine[g & MASK];
    }

    /**
     * The number of the operation of operation_id {@code id}; when there is none yet, {@code -(entry + 1)}
     * of the id's new entry, for {@link #add}.
     */
    int find(LineText id) {
        int entry = operationIds.put(id.chars(), id.length(), id.stringHash());
        return found(byOperationId, entry);
    }

    /** The operation of idempotency key {@code key}, as {@link #find(LineText)} gives it for an operation_id. */
    int find(String key) {
        return found(byKey, keys.put(key));
    }

    private static int found(int[] operations, int entry) {
        return entry < 0 ? operations[-entry - 1] : -(entry + 1);
    }

    /**
     * Adds the operation, first seen at {@code at}:{@code column}, whose id (an operation_id when
     * {@code byOperationIdNotKey}, else an idempotency key) {@code find} has just given as new entry
     * {@code -(found + 1)}; returns its number.
     */
    int add(boolean byOperationIdNotKey, int found, long at, int column) {
        int entry = -found - 1;
        int g = size++;
        int k = g & MASK;
        if (k == 0) {
            if (g >>> PAGE_BITS == pages.length) {
                pages = Arrays.copyOf(pages, 2 * pages.length);
            }
            pages[g >>> PAGE_BITS] = new Page(g == 0 ? 8 : PAGE, null);
        }
        Page p = pages[g >>> PAGE_BITS];
        if (k == p.idEntry.length) {
            p = new Page(Math.min(PAGE, 4 * k), p);
            pages[0] = p;
        }
        if (byOperationIdNotKey) {
            byOperationId = ensure(byOperationId, entry);
            byOperationId[entry] = g;
        } else {
            byKey = ensure(byKey, entry);
            byKey[entry] = g;
        }
        p.idEntry[k] = byOperationIdNotKey ? entry : ~entry;
        p.firstLine[k] = at;
        p.firstColumn[k] = column;
        p.operation[k] = NONE;
        p.firstRow[k] = -1;
        p.lastRow[k] = -1;
        p.key[k] = -1;
        return g;
    }

    /** The id of operation {@code g}. */
    String id(int g) {
        int e = pages[g >>> PAGE_BITS].idEntry[g & MASK];
        return e >= 0 ? operationIds.get(e) : keys.get(~e);
    }

    /** Merges into operation {@code g} the line found at {@code at}:{@code column} of source {@code sourceIndex}, {@code source}. */
    void merge(int g, SpansReader.Line line, String source, int sourceIndex, long at, long column, Limits limits)
            throws InputException {
        Page p = pages[g >>> PAGE_BITS];
        int k = g & MASK;
        OperationDraft held = p.operation[k];
        Rare r = p.rare[k];
        int i = line.operation.firstDisagreement(held);
        if (i >= 0) {
            throw disagreement(source, at, column, OperationDraft.FIELDS.get(i),
                    r == null || r.fieldLines == null ? p.firstLine[k] : r.fieldLines[i]);
        }
        if (line.runId != null && p.runId[k] != null && !p.runId[k].equals(line.runId)) {
            throw disagreement(source, at, column, "parent_run_id", r == null ? p.firstLine[k] : r.runIdLine);
        }
        OperationDraft merged = merged(held, line.operation);
        if (merged != held) {
            if (at != p.firstLine[k]) {
                for (int f = 0; f < held.values.length; f++) {
                    if (held.values[f] == null && merged.values[f] != null) {
                        lineSetsField(p, k, f, at);
                    }
                }
            }
            p.operation[k] = merged;
        }
        if (p.runId[k] == null && line.runId != null) {
            p.runId[k] = line.runId;
            if (at != p.firstLine[k]) {
                rare(p, k).runIdLine = lineInt(at);
            }
        }
        if (line.isCheck) {
            Check check = line.check.build(new Location(source, sourceIndex, at, column, null));
            Rare rg = rare(p, k);
            if (rg.checks.isEmpty()) {
                rg.checks = new ArrayList<>(1);
            }
            rg.checks.add(check);
            return;
        }
        if (p.attemptCount[k] >= limits.attemptsPerOperation()) {
            // Only here, where it throws: the placing function would cost an object per attempt.
            LimitChecks.attempts(limits, p.attemptCount[k] + 1L, "operation", "attempts",
                    detail -> InputException.rejected(source, at, column, "$", detail));
        }
        AttemptDraft a = line.attempt;
        if (!a.valid()) {
            a.check(new Location(source, sourceIndex, at, column, null));
        }
        int attemptKey = attempts.key(a.idempotencyKey);
        if (p.key[k] < 0) {
            p.key[k] = attemptKey;
        }
        int row = attempts.add(a, line.spanId, attemptKey, a.retryReason, at, (int) column);
        if (p.lastRow[k] >= 0) {
            attempts.link(p.lastRow[k], row);
        } else {
            p.firstRow[k] = row;
        }
        p.lastRow[k] = row;
        p.attemptCount[k]++;
    }

    /** Operation {@code g}, its attempts built, placed in source {@code sourceIndex}, {@code source}. */
    Operation build(int g, String source, int sourceIndex) throws InputException {
        Page p = pages[g >>> PAGE_BITS];
        int k = g & MASK;
        if (p.attemptCount[k] == 0) {
            throw InputException.rejected(source, p.firstLine[k], p.firstColumn[k], "$",
                    "a check line for an operation that has no attempt lines");
        }
        OperationDraft op = p.operation[k];
        if (op.tool() == null) {
            throw InputException.rejected(source, p.firstLine[k], p.firstColumn[k], "$.tool",
                    "missing required field tool: no line of this operation carries it");
        }
        List<Attempt> list = new ArrayList<>(p.attemptCount[k]);
        for (int row = p.firstRow[k]; row >= 0; row = attempts.next(row)) {
            list.add(attempts.build(row, source, sourceIndex));
        }
        list.sort(Attempt.BY_ID);
        return op.fill(Operation.builder()).id(id(g))
                .idempotencyKey(list.get(0).idempotencyKey() != null ? list.get(0).idempotencyKey() : attempts.key(p.key[k]))
                .runId(p.runId[k]).attempts(list).checks(p.rare[k] == null ? List.of() : p.rare[k].checks)
                .at(source, sourceIndex, p.firstLine[k], p.firstColumn[k]).build();
    }

    /**
     * The shared draft of {@code held} with the fields {@code line} adds, or {@code held} itself when it
     * adds none; a line that repeats every field held is looked up as it is, with no draft made.
     */
    private OperationDraft merged(OperationDraft held, OperationDraft line) {
        boolean adds = false;
        boolean repeats = true;
        for (int f = 0; f < held.values.length; f++) {
            adds |= held.values[f] == null && line.values[f] != null;
            repeats &= held.values[f] == null || line.values[f] != null;
        }
        if (!adds) {
            return held;
        }
        OperationDraft shared = repeats ? drafts.get(line) : null;
        return shared != null ? shared : share(held.with(line));
    }

    private OperationDraft share(OperationDraft d) {
        if (drafts.size() >= 1 << 16) {
            return d;
        }
        OperationDraft shared = drafts.putIfAbsent(d, d);
        return shared == null ? d : shared;
    }

    /** The rare parts of operation {@code k} of page {@code p}, made when first needed. */
    private static Rare rare(Page p, int k) {
        if (p.rare[k] == null) {
            p.rare[k] = new Rare(p.firstLine[k]);
        }
        return p.rare[k];
    }

    private static void lineSetsField(Page p, int k, int field, long line) {
        Rare r = rare(p, k);
        if (r.fieldLines == null) {
            r.fieldLines = new int[p.operation[k].values.length];
            Arrays.fill(r.fieldLines, lineInt(p.firstLine[k]));
        }
        r.fieldLines[field] = lineInt(line);
    }

    private static int lineInt(long line) {
        return (int) Math.min(Integer.MAX_VALUE, line);
    }

    private static InputException disagreement(String source, long at, long column, String field, long earlierLine) {
        return InputException.rejected(source, at, column, "$." + field,
                "disagrees with line " + earlierLine + " of the same operation");
    }

    private static int[] ensure(int[] a, int index) {
        return index < a.length ? a : Arrays.copyOf(a, Math.max(a.length + (a.length >> 1), index + 1));
    }
}

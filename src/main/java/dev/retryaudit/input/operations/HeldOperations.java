package dev.retryaudit.input.operations;

import dev.retryaudit.input.InputException;
import dev.retryaudit.input.Limits;
import dev.retryaudit.input.reader.IdTable;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Check;
import dev.retryaudit.model.Field;
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

    /** The entry of the operation's id: in {@link #operationIds} when at least 0, else {@code ~entry} in {@link #keys}. */
    private int[] idEntry = new int[8];
    private long[] firstLine = new long[8];
    /** The column of the first line's object, as the parser counts it (in an int). */
    private int[] firstColumn = new int[8];
    private OperationDraft[] operation = new OperationDraft[8];
    private String[] runId = new String[8];
    private String[] key = new String[8];
    private int[] attemptCount = new int[8];
    private int[] firstRow = new int[8];
    private int[] lastRow = new int[8];
    private Rare[] rare = new Rare[8];
    private int size;

    /** How many operations there are. */
    int size() {
        return size;
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
        if (g == idEntry.length) {
            grow();
        }
        if (byOperationIdNotKey) {
            byOperationId = ensure(byOperationId, entry);
            byOperationId[entry] = g;
        } else {
            byKey = ensure(byKey, entry);
            byKey[entry] = g;
        }
        idEntry[g] = byOperationIdNotKey ? entry : ~entry;
        firstLine[g] = at;
        firstColumn[g] = column;
        operation[g] = NONE;
        firstRow[g] = -1;
        lastRow[g] = -1;
        return g;
    }

    /** The id of operation {@code g}. */
    String id(int g) {
        int e = idEntry[g];
        return e >= 0 ? operationIds.get(e) : keys.get(~e);
    }

    /** Merges into operation {@code g} the line found at {@code at}:{@code column} of source {@code sourceIndex}, {@code source}. */
    void merge(int g, SpansReader.Line line, String source, int sourceIndex, long at, long column, Limits limits)
            throws InputException {
        OperationDraft held = operation[g];
        Rare r = rare[g];
        int i = line.operation.firstDisagreement(held);
        if (i >= 0) {
            throw disagreement(source, at, column, OperationDraft.FIELDS.get(i),
                    r == null || r.fieldLines == null ? firstLine[g] : r.fieldLines[i]);
        }
        if (line.runId != null && runId[g] != null && !runId[g].equals(line.runId)) {
            throw disagreement(source, at, column, "parent_run_id", r == null ? firstLine[g] : r.runIdLine);
        }
        OperationDraft merged = merged(held, line.operation);
        if (merged != held) {
            if (at != firstLine[g]) {
                for (int f = 0; f < held.values.length; f++) {
                    if (held.values[f] == null && merged.values[f] != null) {
                        lineSetsField(g, f, at);
                    }
                }
            }
            operation[g] = merged;
        }
        if (runId[g] == null && line.runId != null) {
            runId[g] = line.runId;
            if (at != firstLine[g]) {
                rare(g).runIdLine = lineInt(at);
            }
        }
        if (line.isCheck) {
            Check check = line.check.build(new Location(source, sourceIndex, at, column, null));
            Rare rg = rare(g);
            if (rg.checks.isEmpty()) {
                rg.checks = new ArrayList<>(1);
            }
            rg.checks.add(check);
            return;
        }
        if (attemptCount[g] >= limits.attemptsPerOperation()) {
            // Only here, where it throws: the placing function would cost an object per attempt.
            limits.checkAttempts(attemptCount[g] + 1L, "operation", "attempts",
                    detail -> InputException.rejected(source, at, column, "$", detail));
        }
        AttemptDraft a = line.attempt;
        if (!a.valid()) {
            a.check(new Location(source, sourceIndex, at, column, null));
        }
        String attemptKey = a.idempotencyKey;
        if (attemptKey != null) {
            if (key[g] == null) {
                key[g] = attemptKey;
            } else if (key[g].equals(attemptKey)) {
                attemptKey = key[g];
            }
        }
        int row = attempts.add(a, line.spanId, attemptKey, a.retryReason, at, (int) column);
        if (lastRow[g] >= 0) {
            attempts.link(lastRow[g], row);
        } else {
            firstRow[g] = row;
        }
        lastRow[g] = row;
        attemptCount[g]++;
    }

    /** Operation {@code g}, its attempts built, placed in source {@code sourceIndex}, {@code source}. */
    Operation build(int g, String source, int sourceIndex) throws InputException {
        Location first = new Location(source, sourceIndex, firstLine[g], firstColumn[g], null);
        if (attemptCount[g] == 0) {
            throw InputException.rejected(first.source(), first.line(), first.column(), "$",
                    "a check line for an operation that has no attempt lines");
        }
        OperationDraft op = operation[g];
        if (op.tool() == null) {
            throw InputException.rejected(first.source(), first.line(), first.column(), "$.tool",
                    "missing required field tool: no line of this operation carries it");
        }
        List<Attempt> list = new ArrayList<>(attemptCount[g]);
        for (int row = firstRow[g]; row >= 0; row = attempts.next(row)) {
            list.add(attempts.build(row, source, sourceIndex));
        }
        list.sort(Attempt.BY_ID);
        return new Operation(id(g), op.tool(), op.effect(), op.method(), op.target(),
                list.get(0).idempotencyKey() != null ? list.get(0).idempotencyKey() : key[g], runId[g], op.parent(),
                op.deadlineMs(), op.reportedOutcome(), op.clock(), list,
                rare[g] == null ? List.of() : rare[g].checks, null,
                first, Field.ALL);
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

    private Rare rare(int g) {
        if (rare[g] == null) {
            rare[g] = new Rare(firstLine[g]);
        }
        return rare[g];
    }

    private void lineSetsField(int g, int field, long line) {
        Rare r = rare(g);
        if (r.fieldLines == null) {
            r.fieldLines = new int[operation[g].values.length];
            Arrays.fill(r.fieldLines, lineInt(firstLine[g]));
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

    private void grow() {
        int n = idEntry.length + (idEntry.length >> 1);
        idEntry = Arrays.copyOf(idEntry, n);
        firstLine = Arrays.copyOf(firstLine, n);
        firstColumn = Arrays.copyOf(firstColumn, n);
        operation = Arrays.copyOf(operation, n);
        runId = Arrays.copyOf(runId, n);
        key = Arrays.copyOf(key, n);
        attemptCount = Arrays.copyOf(attemptCount, n);
        firstRow = Arrays.copyOf(firstRow, n);
        lastRow = Arrays.copyOf(lastRow, n);
        rare = Arrays.copyOf(rare, n);
    }
}

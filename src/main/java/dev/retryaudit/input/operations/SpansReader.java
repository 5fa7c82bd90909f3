package dev.retryaudit.input.operations;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.input.InputException;
import dev.retryaudit.input.Limits;
import dev.retryaudit.input.json.FieldMask;
import dev.retryaudit.input.json.JsonCursor;
import dev.retryaudit.input.json.StringPool;
import dev.retryaudit.input.reader.LineChunks;
import dev.retryaudit.input.reader.LineDiscipline;
import dev.retryaudit.input.reader.ParallelChunks;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.input.reader.TraceReader;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Check;
import dev.retryaudit.model.Field;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Stream;

/**
 * Reads {@code spans} JSON Lines: one attempt or check a line, grouped into operations by
 * {@code operation_id}, else by {@code idempotency_key}. The lines of an operation may be spread over
 * the file, so operations are handed on at the end, in the order of their first line; only the
 * grouped attempts are held ({@link HeldAttempts}), never the text. A source of more than one chunk
 * is parsed on several cores ({@link ParallelChunks}) and grouped in line order, so that operations,
 * limits and the first error are those of one pass.
 */
public final class SpansReader implements TraceReader {
    private static final List<String> LINE_FIELDS = Stream.of(
            Stream.of("type", "operation_id", "parent_run_id"), OperationDraft.FIELDS.stream(),
            AttemptDraft.FIELDS.stream(), CheckDraft.FIELDS.stream()).flatMap(s -> s).distinct().toList();
    private static final FieldMask LINE_MASK = new FieldMask(LINE_FIELDS);

    /** The bytes of a chunk of lines parsed on one core ({@code retryaudit.chunkBytes} sets it, for tests). */
    private static int chunkBytes() {
        return Math.max(1, Integer.getInteger("retryaudit.chunkBytes", 1 << 20));
    }

    /** Repeated values of the chunks one thread parses. */
    private static final ThreadLocal<StringPool> CHUNK_STRINGS = ThreadLocal.withInitial(() -> new StringPool(1 << 16));

    @Override
    public void read(ReadContext ctx) throws IOException, InputException {
        Groups groups = new Groups();
        LineDiscipline lines = discipline(ctx);
        Queue<Batch> spare = new ConcurrentLinkedQueue<>();
        InputStream rest = ParallelChunks.run(ctx.lineChunks(chunkBytes()), chunk -> parse(ctx, chunk, spare),
                (chunk, batch) -> {
                    for (int k = 0; k < batch.size; k++) {
                        long at = chunk.firstLine() - 1 + batch.line[k];
                        lines.counted(at);
                        add(groups, batch.lines[k], at, batch.column[k], ctx);
                    }
                    batch.size = 0;
                    spare.add(batch);
                });
        if (rest != null) {
            readLines(ctx.openCheckingDuplicatesItself(in -> rest), groups, lines, ctx);
        }
        if (lines.records() == 0) {
            throw empty(ctx.source());
        }
        for (Group g : groups.inOrder) {
            ctx.sink().accept(g.build(groups.attempts, ctx.source(), ctx.sourceIndex()));
        }
    }

    private static LineDiscipline discipline(ReadContext ctx) {
        return new LineDiscipline(ctx.source(), null, "JSON Lines holds one span a line",
                "a span must fit on one line (JSON Lines); this object spans several", true);
    }

    /** Reads and groups every line from the cursor on, in one pass. */
    private static void readLines(JsonCursor c, Groups groups, LineDiscipline lines, ReadContext ctx)
            throws IOException, InputException {
        Line line = new Line();
        JsonToken t;
        while ((t = c.next()) != null) {
            if (t != JsonToken.START_OBJECT) {
                throw c.error("$", "expected one JSON object a line, found " + JsonCursor.describe(t));
            }
            lines.start(c);
            long at = lines.startLine();
            long column = lines.startColumn();
            readLine(c, ctx.source(), at, column, line);
            lines.end(c);
            add(groups, line, at, column, ctx);
        }
    }

    /**
     * The lines of one chunk and where each starts in it (line, column); once merged, it and its
     * {@link Line}s are filled again with a later chunk's, so that a line costs no objects of its own.
     */
    private static final class Batch {
        Line[] lines = new Line[256];
        long[] line = new long[256];
        int[] column = new int[256];
        int size;

        /** The next line's fields, cleared, starting at {@code at}:{@code col}. */
        Line add(long at, long col) {
            if (size == lines.length) {
                lines = java.util.Arrays.copyOf(lines, 2 * size);
                line = java.util.Arrays.copyOf(line, 2 * size);
                column = java.util.Arrays.copyOf(column, 2 * size);
            }
            if (lines[size] == null) {
                lines[size] = new Line();
            }
            line[size] = at;
            column[size] = (int) col;
            return lines[size++];
        }
    }

    /**
     * The lines of one chunk, on any thread; throws at the first line that is not a whole span, and
     * at a start that is not plain UTF-8 JSON (a byte order mark, another encoding), which only the
     * one-pass reader judges.
     */
    private static Batch parse(ReadContext ctx, LineChunks.Chunk chunk, Queue<Batch> spare)
            throws IOException, InputException {
        byte[] bytes = chunk.bytes();
        for (int i = 0; i < Math.min(4, chunk.length()); i++) {
            if (bytes[i] == 0 || bytes[i] < 0) {
                throw new IOException("not plain UTF-8 JSON at the start of a chunk");
            }
        }
        Batch out = spare.poll();
        if (out == null) {
            out = new Batch();
        }
        LineDiscipline lines = discipline(ctx);
        JsonCursor c = ctx.chunkCursor(bytes, chunk.length(), CHUNK_STRINGS.get());
        try (JsonParser p = c.parser()) {
            JsonToken t;
            while ((t = c.next()) != null) {
                if (t != JsonToken.START_OBJECT) {
                    throw c.error("$", "expected one JSON object a line");
                }
                lines.start(c);
                long at = lines.startLine();
                long column = lines.startColumn();
                Line line = out.add(at, column);
                readLine(c, ctx.source(), at, column, line);
                lines.end(c);
                hashGroupKeys(line);
            }
        }
        return out;
    }

    /** The operations so far, found by operation_id or by idempotency key, in order of first line. */
    static final class Groups {
        final GroupIndex<Group> byOperationId = new GroupIndex<>(g -> g.id);
        final GroupIndex<Group> byKey = new GroupIndex<>(g -> g.id);
        final List<Group> inOrder = new ArrayList<>();
        final HeldAttempts attempts = new HeldAttempts();
        /** One instance of each combination of operation fields, shared by the operations that have it. */
        final Map<OperationDraft, OperationDraft> drafts = new HashMap<>();

        /**
         * The shared draft of {@code held} with the fields {@code line} adds, or {@code held} itself when it
         * adds none; a line that repeats every field held is looked up as it is, with no draft made.
         */
        OperationDraft merged(OperationDraft held, OperationDraft line) {
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
    }

    /** One line's fields, before it is known whether it is an attempt or a check; reused from line to line. */
    static final class Line {
        final AttemptDraft attempt = new AttemptDraft();
        final OperationDraft operation = new OperationDraft();
        final CheckDraft check = new CheckDraft();
        boolean isCheck;
        String attemptField;
        String checkField;
        String operationId;
        String runId;

        void clear() {
            attempt.clear();
            operation.clear();
            check.clear();
            isCheck = false;
            attemptField = null;
            checkField = null;
            operationId = null;
            runId = null;
        }
    }

    /** Hashes the strings a line is grouped by, on the chunk's thread rather than the merging one (a string keeps its hash). */
    private static void hashGroupKeys(Line line) {
        if (line.operationId != null) {
            line.operationId.hashCode();
        }
        if (line.attempt.idempotencyKey != null) {
            line.attempt.idempotencyKey.hashCode();
        }
    }

    /** Reads one line's object, from its first field name on; {@code at} places the line's errors. */
    static Line readLine(JsonCursor c, Location at) throws IOException, InputException {
        Line line = new Line();
        readLine(c, at.source(), at.line(), at.column(), line);
        return line;
    }

    /** Reads one line's object into {@code line}; the line's errors are placed at {@code at}:{@code column} of {@code source}. */
    private static void readLine(JsonCursor c, String source, long at, long column, Line line)
            throws IOException, InputException {
        line.clear();
        long seen = 0;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            seen = LINE_MASK.mark(seen, name, c);
            c.valueOfCheckedField();
            switch (name) {
                case "type" -> {
                    String type = c.optSharedString();
                    if (type != null && !type.equals("attempt") && !type.equals("check")) {
                        throw c.error("expected one of attempt, check");
                    }
                    line.isCheck = "check".equals(type);
                }
                case "operation_id" -> line.operationId = c.optString();
                case "parent_run_id" -> line.runId = c.optSharedString();
                default -> {
                    if (line.operation.bind(name, c)) {
                        continue;
                    }
                    if (line.attempt.bind(name, c)) {
                        if (!name.equals("idempotency_key")) {
                            line.attemptField = name;
                        }
                    } else if (line.check.bind(name, c)) {
                        line.checkField = name;
                    } else {
                        throw c.unknownField(name, LINE_FIELDS);
                    }
                }
            }
        }
        if (line.isCheck && line.attemptField != null) {
            throw InputException.rejected(source, at, column, "$." + line.attemptField,
                    "an attempt field on a check line (\"type\": \"check\")");
        }
        if (!line.isCheck && line.checkField != null) {
            throw InputException.rejected(source, at, column, "$." + line.checkField,
                    "a check field on an attempt line; checks say \"type\": \"check\"");
        }
    }

    /** Groups the line found at {@code at}:{@code column} of the context's source. */
    private static void add(Groups groups, Line line, long at, long column, ReadContext ctx) throws InputException {
        GroupIndex<Group> index = byOperationId(line, ctx.source(), at, column) ? groups.byOperationId : groups.byKey;
        String id = groupId(line);
        Group g = index.get(id);
        if (g == null) {
            ctx.limits().checkOperations(groups.inOrder.size() + 1L,
                    detail -> InputException.rejected(ctx.source(), at, column, "$", detail));
            g = new Group(id, at, (int) column);
            index.add(g);
            groups.inOrder.add(g);
        }
        g.merge(line, ctx.source(), ctx.sourceIndex(), at, column, ctx.limits(), groups);
    }

    /** The rejection of a source with no span line. */
    static InputException empty(String source) {
        return InputException.rejected(source, 1, 1, "$", "empty input: expected JSON Lines, one span a line");
    }

    /** Whether the line is grouped by its operation_id (else by its idempotency key); rejects a line with neither. */
    static boolean byOperationId(Line line, Location at) throws InputException {
        return byOperationId(line, at.source(), at.line(), at.column());
    }

    private static boolean byOperationId(Line line, String source, long at, long column) throws InputException {
        if (line.operationId != null) {
            return true;
        }
        if (line.attempt.idempotencyKey != null) {
            return false;
        }
        throw InputException.rejected(source, at, column, "$",
                "a span line needs operation_id or idempotency_key to be grouped into an operation");
    }

    /** The id of the operation a line belongs to: its operation_id, else its idempotency key. */
    static String groupId(Line line) {
        return line.operationId != null ? line.operationId : line.attempt.idempotencyKey;
    }

    /** The lines of one operation so far: its shared fields and the rows of its attempts. */
    static final class Group {
        private static final OperationDraft NONE = new OperationDraft();
        final String id;
        final long firstLine;
        /** The column of the first line's object, as the parser counts it (in an int). */
        final int firstColumn;
        OperationDraft operation = NONE;
        String runId;
        String key;
        int attempts;
        int firstRow = -1;
        int lastRow = -1;
        /** What few operations need: checks, and the lines that set fields after the first; null until then. */
        Rare rare;

        /** The rare parts of an operation. */
        static final class Rare {
            /** The line that set each operation field; null while the first line set them all. */
            int[] fieldLines;
            int runIdLine;
            List<Check> checks = List.of();

            Rare(long firstLine) {
                runIdLine = (int) Math.min(Integer.MAX_VALUE, firstLine);
            }
        }

        Rare rare() {
            if (rare == null) {
                rare = new Rare(firstLine);
            }
            return rare;
        }

        Group(String id, long firstLine, int firstColumn) {
            this.id = id;
            this.firstLine = firstLine;
            this.firstColumn = firstColumn;
        }

        void merge(Line line, Location at, Limits limits, Groups groups) throws InputException {
            merge(line, at.source(), at.sourceIndex(), at.line(), at.column(), limits, groups);
        }

        /** Merges the line found at {@code at}:{@code column} of source {@code sourceIndex}, {@code source}. */
        void merge(Line line, String source, int sourceIndex, long at, long column, Limits limits, Groups groups)
                throws InputException {
            int i = line.operation.firstDisagreement(operation);
            if (i >= 0) {
                throw disagreement(source, at, column, OperationDraft.FIELDS.get(i),
                        rare == null || rare.fieldLines == null ? firstLine : rare.fieldLines[i]);
            }
            if (line.runId != null && runId != null && !runId.equals(line.runId)) {
                throw disagreement(source, at, column, "parent_run_id", rare == null ? firstLine : rare.runIdLine);
            }
            OperationDraft merged = groups.merged(operation, line.operation);
            if (merged != operation) {
                if (at != firstLine) {
                    for (int f = 0; f < operation.values.length; f++) {
                        if (operation.values[f] == null && merged.values[f] != null) {
                            lineSetsField(f, at);
                        }
                    }
                }
                operation = merged;
            }
            if (runId == null && line.runId != null) {
                runId = line.runId;
                if (at != firstLine) {
                    rare().runIdLine = (int) Math.min(Integer.MAX_VALUE, at);
                }
            }
            if (line.isCheck) {
                Check check = line.check.build(new Location(source, sourceIndex, at, column, null));
                if (rare().checks.isEmpty()) {
                    rare.checks = new ArrayList<>(1);
                }
                rare.checks.add(check);
                return;
            }
            limits.checkAttempts(attempts + 1L, "operation", "attempts",
                    detail -> InputException.rejected(source, at, column, "$", detail));
            AttemptDraft a = line.attempt;
            if (!a.valid()) {
                a.check(new Location(source, sourceIndex, at, column, null));
            }
            String attemptKey = a.idempotencyKey;
            if (attemptKey != null) {
                if (key == null) {
                    key = attemptKey;
                } else if (key.equals(attemptKey)) {
                    attemptKey = key;
                }
            }
            int row = groups.attempts.add(a, attemptKey, a.retryReason, at, (int) column);
            if (lastRow >= 0) {
                groups.attempts.link(lastRow, row);
            } else {
                firstRow = row;
            }
            lastRow = row;
            attempts++;
        }

        private void lineSetsField(int field, long line) {
            if (rare().fieldLines == null) {
                rare.fieldLines = new int[operation.values.length];
                java.util.Arrays.fill(rare.fieldLines, (int) Math.min(Integer.MAX_VALUE, firstLine));
            }
            rare.fieldLines[field] = (int) Math.min(Integer.MAX_VALUE, line);
        }

        private static InputException disagreement(String source, long at, long column, String field, long earlierLine) {
            return InputException.rejected(source, at, column, "$." + field,
                    "disagrees with line " + earlierLine + " of the same operation");
        }

        /** The operation, its attempts taken from {@code held}, placed in source {@code sourceIndex}, {@code source}. */
        Operation build(HeldAttempts held, String source, int sourceIndex) throws InputException {
            Location first = new Location(source, sourceIndex, firstLine, firstColumn, null);
            if (attempts == 0) {
                throw InputException.rejected(first.source(), first.line(), first.column(), "$",
                        "a check line for an operation that has no attempt lines");
            }
            if (operation.tool() == null) {
                throw InputException.rejected(first.source(), first.line(), first.column(), "$.tool",
                        "missing required field tool: no line of this operation carries it");
            }
            List<Attempt> list = new ArrayList<>(attempts);
            for (int row = firstRow; row >= 0; row = held.next(row)) {
                list.add(held.build(row, source, sourceIndex));
            }
            list.sort(Attempt.BY_ID);
            return new Operation(id, operation.tool(), operation.effect(), operation.method(), operation.target(),
                    list.get(0).idempotencyKey() != null ? list.get(0).idempotencyKey() : key, runId, operation.parent(),
                    operation.deadlineMs(), operation.reportedOutcome(), operation.clock(), list,
                    rare == null ? List.of() : rare.checks, null,
                    first, Field.ALL);
        }
    }
}

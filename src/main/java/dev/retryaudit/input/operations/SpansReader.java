package dev.retryaudit.input.operations;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.json.FieldMask;
import dev.retryaudit.model.internal.LimitChecks;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.input.reader.LineChunks;
import dev.retryaudit.input.reader.LineDiscipline;
import dev.retryaudit.input.reader.ParallelChunks;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.input.reader.TraceReader;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Location;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Stream;

/**
 * Reads {@code spans} JSON Lines: one attempt or check a line, grouped into operations by
 * {@code operation_id}, else by {@code idempotency_key}. The lines of an operation may be spread over
 * the file, so operations are handed on at the end, in the order of their first line; only the
 * grouped operations and attempts are held, in columns ({@link HeldOperations}, {@link HeldAttempts}),
 * never the text. A source of more than one chunk is parsed on several cores ({@link ParallelChunks})
 * and grouped in line order, so that operations, limits and the first error are those of one pass.
 */
public final class SpansReader implements TraceReader {
    private static final List<String> LINE_FIELDS = Stream.of(
            Stream.of("type", "operation_id", "parent_run_id"), OperationDraft.FIELDS.stream(),
            AttemptDraft.FIELDS.stream(), CheckDraft.FIELDS.stream()).flatMap(s -> s).distinct().toList();
    private static final FieldMask LINE_MASK = new FieldMask(LINE_FIELDS);
    /** What each of {@link #LINE_FIELDS} is, by its position: one of the kinds below, or a draft's field. */
    private static final int TYPE = -1;
    private static final int OPERATION_ID = -2;
    private static final int SPAN_ID = -3;
    private static final int PARENT_RUN_ID = -4;
    /** A draft's field number plus one of these: the operation's, the attempt's or the check's. */
    private static final int OPERATION = 0;
    private static final int ATTEMPT = 1 << 8;
    private static final int CHECK = 2 << 8;
    private static final int[] LINE_KINDS = LINE_FIELDS.stream().mapToInt(SpansReader::kindOf).toArray();

    @Override
    public void read(ReadContext ctx) throws IOException, InputException {
        HeldOperations groups = hold(ctx, true);
        if (groups.size() == 0) {
            throw empty(ctx.source());
        }
        for (int g = 0; g < groups.size(); g++) {
            ctx.sink().accept(groups.build(g, ctx.source(), ctx.sourceIndex()));
        }
    }

    /**
     * The lines of the context's source, read as {@link #read} reads them and grouped into operations, not
     * yet built: none when the source holds no span line. Throws the first error of a line. {@code parallel}:
     * its chunks are parsed on several cores ({@link ParallelChunks}), else it is read in one pass on the
     * calling thread (for an engine that gives each task one core).
     */
    static HeldOperations hold(ReadContext ctx, boolean parallel) throws IOException, InputException {
        HeldOperations groups = new HeldOperations();
        LineDiscipline lines = discipline(ctx);
        if (!parallel) {
            readLines(ctx.openCheckingDuplicatesItself(), groups, lines, ctx);
            return groups;
        }
        Queue<Batch> spare = new ConcurrentLinkedQueue<>();
        InputStream rest = ParallelChunks.run(ctx.lineChunks(ParallelChunks.chunkBytes()), chunk -> parse(ctx, chunk, spare),
                (chunk, batch) -> {
                    for (int k = 0; k < batch.size; k++) {
                        long at = chunk.firstLine() - 1 + batch.line[k];
                        lines.counted(at);
                        add(groups, batch.lines[k], at, batch.column[k], ctx);
                    }
                    batch.size = 0;
                    spare.add(batch);
                });
        // The batches' lines are not needed while the operations are built and checked.
        spare.clear();
        if (rest != null) {
            readLines(ctx.openCheckingDuplicatesItself(in -> rest), groups, lines, ctx);
        }
        // Every line read is grouped (or rejected): no group, no line.
        return groups;
    }

    private static LineDiscipline discipline(ReadContext ctx) {
        return new LineDiscipline(ctx.source(), null, "JSON Lines holds one span a line",
                "a span must fit on one line (JSON Lines); this object spans several", true);
    }

    /** Reads and groups every line from the cursor on, in one pass. */
    private static void readLines(JsonCursor c, HeldOperations groups, LineDiscipline lines, ReadContext ctx)
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
                lines = Arrays.copyOf(lines, 2 * size);
                line = Arrays.copyOf(line, 2 * size);
                column = Arrays.copyOf(column, 2 * size);
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
        JsonCursor c = ctx.chunkCursor(chunk, true);
        Batch out = spare.poll();
        if (out == null) {
            out = new Batch();
        }
        LineDiscipline lines = discipline(ctx);
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

    /** One line's fields, before it is known whether it is an attempt or a check; reused from line to line. */
    static final class Line {
        final AttemptDraft attempt = new AttemptDraft();
        final OperationDraft operation = new OperationDraft();
        final CheckDraft check = new CheckDraft();
        boolean isCheck;
        String attemptField;
        String checkField;
        /** The operation_id and span_id, as characters (the other attempt fields are in {@link #attempt}). */
        final LineText operationId = new LineText();
        final LineText spanId = new LineText();
        String runId;

        void clear() {
            attempt.clear();
            operation.clear();
            check.clear();
            isCheck = false;
            attemptField = null;
            checkField = null;
            operationId.clear();
            spanId.clear();
            runId = null;
        }
    }

    /**
     * Hashes the idempotency key, which a line without operation_id is grouped by, on the chunk's thread
     * rather than the merging one (a string keeps its hash; the operation_id's is taken as it is read).
     */
    private static void hashGroupKeys(Line line) {
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

    /** The kind of a line field's name, as {@link #LINE_KINDS} holds it; the drafts in the order they claim a name. */
    private static int kindOf(String name) {
        switch (name) {
            case "type" -> {
                return TYPE;
            }
            case "operation_id" -> {
                return OPERATION_ID;
            }
            case "span_id" -> {
                return SPAN_ID;
            }
            case "parent_run_id" -> {
                return PARENT_RUN_ID;
            }
            default -> {
                if (OperationDraft.MASK.position(name) >= 0) {
                    return OPERATION + OperationDraft.MASK.position(name);
                }
                if (AttemptDraft.MASK.position(name) >= 0) {
                    return ATTEMPT + AttemptDraft.MASK.position(name);
                }
                return CHECK + CheckDraft.MASK.position(name);
            }
        }
    }

    /**
     * Reads one line's object into {@code line}; the line's errors are placed at {@code at}:{@code column} of
     * {@code source}. A name is looked up once, by the parser's own instance of it: its position in
     * {@link #LINE_FIELDS} both marks it seen and says which draft reads it.
     */
    private static void readLine(JsonCursor c, String source, long at, long column, Line line)
            throws IOException, InputException {
        line.clear();
        long seen = 0;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            int position = LINE_MASK.position(seen, name, c);
            seen |= 1L << position;
            c.valueOfCheckedField();
            int kind = LINE_KINDS[position];
            if (kind >= 0) {
                readDraftField(c, kind, line, name);
            } else {
                readLineField(c, kind, line, name);
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

    /** Reads a field of the line itself: its type, operation_id, span_id or parent_run_id. */
    private static void readLineField(JsonCursor c, int kind, Line line, String name) throws IOException, InputException {
        switch (kind) {
            case TYPE -> {
                String type = c.optSharedString();
                if (type != null && !type.equals("attempt") && !type.equals("check")) {
                    throw c.error("expected one of attempt, check");
                }
                line.isCheck = "check".equals(type);
            }
            case OPERATION_ID -> line.operationId.read(c);
            case SPAN_ID -> {
                line.spanId.read(c);
                line.attemptField = name;
            }
            default -> line.runId = c.optSharedString();
        }
    }

    /** Reads a field of one of the line's drafts, {@code kind} saying which draft and which of its fields. */
    private static void readDraftField(JsonCursor c, int kind, Line line, String name) throws IOException, InputException {
        int field = kind & 0xFF;
        switch (kind >>> 8) {
            case 0 -> line.operation.bind(field, c);
            case 1 -> {
                line.attempt.bind(field, c);
                if (field != AttemptDraft.IDEMPOTENCY_KEY) {
                    line.attemptField = name;
                }
            }
            default -> {
                line.check.bind(field, c);
                line.checkField = name;
            }
        }
    }

    /** Groups the line found at {@code at}:{@code column} of the context's source. */
    private static void add(HeldOperations groups, Line line, long at, long column, ReadContext ctx)
            throws InputException {
        boolean byOperationId = byOperationId(line, ctx.source(), at, column);
        int g = find(groups, byOperationId, line);
        if (g < 0) {
            if (groups.size() >= ctx.limits().operations()) {
                // Only here, where it throws: the placing function would cost an object per operation.
                LimitChecks.operations(ctx.limits(), groups.size() + 1L,
                        detail -> InputException.rejected(ctx.source(), at, column, "$", detail));
            }
            g = groups.add(byOperationId, g, at, (int) column);
        }
        groups.merge(g, line, ctx.source(), ctx.sourceIndex(), at, column, ctx.limits());
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
        if (line.operationId.present()) {
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
        return line.operationId.present() ? line.operationId.value() : line.attempt.idempotencyKey;
    }

    /** The operation of the line's id in {@code groups}, as {@link HeldOperations#find} gives it. */
    static int find(HeldOperations groups, boolean byOperationId, Line line) {
        return byOperationId ? groups.find(line.operationId) : groups.find(line.attempt.idempotencyKey);
    }
}

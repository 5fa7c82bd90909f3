package dev.retryaudit.input.operations;

import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.input.InputException;
import dev.retryaudit.input.Limits;
import dev.retryaudit.input.json.FieldMask;
import dev.retryaudit.input.json.JsonCursor;
import dev.retryaudit.input.json.StringPool;
import dev.retryaudit.input.reader.LineDiscipline;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.input.reader.TraceReader;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Check;
import dev.retryaudit.model.Field;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Reads {@code spans} JSON Lines: one attempt or check a line, grouped into operations by
 * {@code operation_id}, else by {@code idempotency_key}. The lines of an operation may be spread over
 * the file, so operations are handed on at the end, in the order of their first line; only the
 * grouped attempts are held, never the text.
 */
public final class SpansReader implements TraceReader {
    private static final List<String> LINE_FIELDS = Stream.of(
            Stream.of("type", "operation_id", "parent_run_id"), OperationDraft.FIELDS.stream(),
            AttemptDraft.FIELDS.stream(), CheckDraft.FIELDS.stream()).flatMap(s -> s).distinct().toList();
    private static final FieldMask LINE_MASK = new FieldMask(LINE_FIELDS);

    @Override
    public void read(ReadContext ctx) throws IOException, InputException {
        JsonCursor c = ctx.openCheckingDuplicatesItself();
        Groups groups = new Groups();
        LineDiscipline lines = new LineDiscipline(ctx.source(), null, "JSON Lines holds one span a line",
                "a span must fit on one line (JSON Lines); this object spans several", true);
        JsonToken t;
        while ((t = c.next()) != null) {
            if (t != JsonToken.START_OBJECT) {
                throw c.error("$", "expected one JSON object a line, found " + JsonCursor.describe(t));
            }
            Location at = ctx.location(c, null);
            lines.start(c);
            Line line = readLine(c, at);
            lines.end(c);
            add(groups, line, at, ctx);
        }
        if (lines.records() == 0) {
            throw empty(ctx.source());
        }
        for (Group g : groups.inOrder) {
            ctx.sink().accept(g.build());
        }
    }

    /** The operations so far, found by operation_id or by idempotency key, in order of first line. */
    private static final class Groups {
        final Map<String, Group> byOperationId = new HashMap<>();
        final Map<String, Group> byKey = new HashMap<>();
        final List<Group> inOrder = new ArrayList<>();
        final StringPool strings = new StringPool(1 << 16);
    }

    /** One line's fields, before it is known whether it is an attempt or a check. */
    static final class Line {
        final AttemptDraft attempt = new AttemptDraft();
        final OperationDraft operation = new OperationDraft();
        final CheckDraft check = new CheckDraft();
        boolean isCheck;
        String attemptField;
        String checkField;
        String operationId;
        String runId;
    }

    static Line readLine(JsonCursor c, Location at) throws IOException, InputException {
        Line line = new Line();
        long seen = 0;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            seen = LINE_MASK.mark(seen, name, c);
            c.valueOfCheckedField();
            switch (name) {
                case "type" -> {
                    String type = c.optString();
                    if (type != null && !type.equals("attempt") && !type.equals("check")) {
                        throw c.error("expected one of attempt, check");
                    }
                    line.isCheck = "check".equals(type);
                }
                case "operation_id" -> line.operationId = c.optString();
                case "parent_run_id" -> line.runId = c.optString();
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
            throw InputException.rejected(at.source(), at.line(), at.column(), "$." + line.attemptField,
                    "an attempt field on a check line (\"type\": \"check\")");
        }
        if (!line.isCheck && line.checkField != null) {
            throw InputException.rejected(at.source(), at.line(), at.column(), "$." + line.checkField,
                    "a check field on an attempt line; checks say \"type\": \"check\"");
        }
        return line;
    }

    private static void add(Groups groups, Line line, Location at, ReadContext ctx) throws InputException {
        boolean byOperationId = byOperationId(line, at);
        Map<String, Group> index = byOperationId ? groups.byOperationId : groups.byKey;
        String id = groupId(line);
        Group g = index.get(id);
        if (g == null) {
            ctx.limits().checkOperations(groups.inOrder.size() + 1L,
                    detail -> InputException.rejected(at.source(), at.line(), at.column(), "$", detail));
            g = new Group(id, at);
            index.put(id, g);
            groups.inOrder.add(g);
        }
        g.merge(line, at, ctx.limits(), groups.strings);
    }

    /** The rejection of a source with no span line. */
    static InputException empty(String source) {
        return InputException.rejected(source, 1, 1, "$", "empty input: expected JSON Lines, one span a line");
    }

    /** Whether the line is grouped by its operation_id (else by its idempotency key); rejects a line with neither. */
    static boolean byOperationId(Line line, Location at) throws InputException {
        if (line.operationId != null) {
            return true;
        }
        if (line.attempt.idempotencyKey != null) {
            return false;
        }
        throw InputException.rejected(at.source(), at.line(), at.column(), "$",
                "a span line needs operation_id or idempotency_key to be grouped into an operation");
    }

    /** The id of the operation a line belongs to: its operation_id, else its idempotency key. */
    static String groupId(Line line) {
        return line.operationId != null ? line.operationId : line.attempt.idempotencyKey;
    }

    /** The lines of one operation so far. */
    static final class Group {
        final String id;
        final Location first;
        final OperationDraft operation = new OperationDraft();
        /** The line that set each operation field; null while the first line set them all. */
        int[] fieldLines;
        String runId;
        int runIdLine;
        String key;
        final List<Attempt> attempts = new ArrayList<>(2);
        List<Check> checks = List.of();

        Group(String id, Location first) {
            this.id = id;
            this.first = first;
        }

        void merge(Line line, Location at, Limits limits, StringPool strings) throws InputException {
            int i = line.operation.firstDisagreement(operation);
            if (i >= 0) {
                throw disagreement(at, OperationDraft.FIELDS.get(i), fieldLines == null ? first.line() : fieldLines[i]);
            }
            if (line.runId != null && runId != null && !runId.equals(line.runId)) {
                throw disagreement(at, "parent_run_id", runIdLine);
            }
            for (int f = 0; f < operation.values.length; f++) {
                Object v = line.operation.values[f];
                if (operation.values[f] == null && v != null) {
                    if (at.line() != first.line()) {
                        lineSetsField(f, at.line());
                    }
                    operation.values[f] = v instanceof String s ? strings.share(s) : v;
                }
            }
            if (runId == null && line.runId != null) {
                runId = strings.share(line.runId);
                runIdLine = (int) Math.min(Integer.MAX_VALUE, at.line());
            }
            if (line.isCheck) {
                if (checks.isEmpty()) {
                    checks = new ArrayList<>(1);
                }
                checks.add(line.check.build(at));
                return;
            }
            limits.checkAttempts(attempts.size() + 1, "operation", "attempts",
                    detail -> InputException.rejected(at.source(), at.line(), at.column(), "$", detail));
            AttemptDraft a = line.attempt;
            a.retryReason = strings.share(a.retryReason);
            a.retryAfter = strings.share(a.retryAfter);
            a.responseDate = strings.share(a.responseDate);
            if (a.idempotencyKey != null) {
                if (key == null) {
                    key = a.idempotencyKey;
                } else if (key.equals(a.idempotencyKey)) {
                    a.idempotencyKey = key;
                }
            }
            attempts.add(a.build(at));
        }

        private void lineSetsField(int field, long line) {
            if (fieldLines == null) {
                fieldLines = new int[operation.values.length];
                java.util.Arrays.fill(fieldLines, (int) Math.min(Integer.MAX_VALUE, first.line()));
            }
            fieldLines[field] = (int) Math.min(Integer.MAX_VALUE, line);
        }

        private static InputException disagreement(Location at, String field, long earlierLine) {
            return InputException.rejected(at.source(), at.line(), at.column(), "$." + field,
                    "disagrees with line " + earlierLine + " of the same operation");
        }

        Operation build() throws InputException {
            if (attempts.isEmpty()) {
                throw InputException.rejected(first.source(), first.line(), first.column(), "$",
                        "a check line for an operation that has no attempt lines");
            }
            if (operation.tool() == null) {
                throw InputException.rejected(first.source(), first.line(), first.column(), "$.tool",
                        "missing required field tool: no line of this operation carries it");
            }
            attempts.sort(Attempt.BY_ID);
            return new Operation(id, operation.tool(), operation.effect(), operation.method(), operation.target(),
                    attempts.get(0).idempotencyKey() != null ? attempts.get(0).idempotencyKey() : key, runId, operation.parent(),
                    operation.deadlineMs(), operation.reportedOutcome(), operation.clock(), attempts, checks, null,
                    first, Field.ALL);
        }
    }
}

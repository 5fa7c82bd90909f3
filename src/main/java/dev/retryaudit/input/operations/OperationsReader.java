package dev.retryaudit.input.operations;

import dev.retryaudit.model.internal.LimitChecks;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.json.FieldMask;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.input.reader.Drafts;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.input.reader.TraceReader;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Check;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;

/** Reads the native {@code operations} document one operation at a time, never as one tree. */
public final class OperationsReader implements TraceReader {
    private static final List<String> TOP_FIELDS = List.of("version", "source", "operations", "$schema");
    private static final List<String> OPERATION_FIELDS = Stream.concat(
            Stream.of("id", "idempotency_key", "run_id", "attempts", "checks", "attributes"),
            OperationDraft.FIELDS.stream()).toList();
    private static final FieldMask TOP_MASK = new FieldMask(TOP_FIELDS);
    /** The JSON Pointer of the operations array, which an operation's index completes. */
    private static final String OPERATIONS = "/operations/";
    /** What an attempt's index follows in its JSON Pointer, after its operation's. */
    private static final String ATTEMPTS = "/attempts/";
    /** The fields of the cases in {@link #readOperation}; OperationDraft's follow them. */
    private static final int OWN_FIELDS = 6;
    private static final FieldMask OPERATION_MASK = new FieldMask(OPERATION_FIELDS);

    @Override
    public void read(ReadContext ctx) throws IOException, InputException {
        JsonCursor c = ctx.openCheckingDuplicatesItself();
        if (c.next() == null) {
            throw InputException.rejected(ctx.source(), 1, 1, "$", "empty input: expected an operations document");
        }
        c.expectObject("an operations document");
        Location root = ctx.location(c, "");
        boolean version = false;
        boolean operations = false;
        long seen = 0;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            seen = TOP_MASK.mark(seen, name, c);
            c.valueOfCheckedField();
            switch (name) {
                case "version" -> {
                    Long v = c.optLong(Long.MIN_VALUE, Long.MAX_VALUE);
                    if (v == null || v != 1) {
                        throw c.error("unsupported version: this reader reads version 1");
                    }
                    version = true;
                }
                case "source", "$schema" -> c.optString();
                case "operations" -> {
                    c.expectArray("the operations");
                    int index = 0;
                    Scratch scratch = new Scratch(c);
                    while (c.next() != JsonToken.END_ARRAY) {
                        ctx.sink().accept(readOperation(c, ctx, index++, scratch));
                    }
                    operations = true;
                }
                default -> throw c.unknownField(name, TOP_FIELDS);
            }
        }
        if (!version || !operations) {
            throw Drafts.missing(root, version ? "operations" : "version");
        }
        if (c.next() != null) {
            throw c.error("$", "trailing content after the JSON document");
        }
    }

    private static Operation readOperation(JsonCursor c, ReadContext ctx, int index, Scratch scratch)
            throws IOException, InputException {
        c.expectObject("an operation");
        JsonLocation place = c.tokenLocation();
        long line = JsonCursor.line(place);
        long column = JsonCursor.column(place);
        OperationDraft common = scratch.operation;
        common.clear();
        String id = null;
        String key = null;
        String runId = null;
        String attributes = null;
        List<Attempt> attempts = null;
        List<Check> checks = List.of();
        long seen = 0;
        while (c.next() == JsonToken.FIELD_NAME) {
            int field = OPERATION_MASK.position(seen, c.parser().currentName(), c);
            seen |= 1L << field;
            c.valueOfCheckedField();
            switch (field) { // positions in OPERATION_FIELDS
                case 0 -> id = c.optString();
                case 1 -> key = c.optString();
                case 2 -> runId = c.optSharedString();
                case 3 -> attempts = readAttempts(c, ctx, index, scratch);
                case 4 -> checks = readChecks(c, ctx, index, scratch);
                case 5 -> attributes = c.optObjectCopy();
                default -> common.bind(field - OWN_FIELDS, c);
            }
        }
        if (id == null || common.tool() == null || attempts == null || attempts.isEmpty()) {
            Location at = ctx.location(line, column, OPERATIONS + index);
            if (id == null || common.tool() == null || attempts == null) {
                throw Drafts.missing(at, id == null ? "id" : common.tool() == null ? "tool" : "attempts");
            }
            throw InputException.rejected(at.source(), at.line(), at.column(), Drafts.pathOf(at) + ".attempts",
                    "an operation needs at least one attempt");
        }
        return common.fill(scratch.op).id(id).idempotencyKey(key).runId(runId).attempts(attempts).checks(checks)
                .attributesJson(attributes).at(ctx.source(), ctx.sourceIndex(), line, column).pointer(OPERATIONS, index)
                .build();
    }

    /** The attempts in attempt_id order (empty when there are none), or null for JSON null. */
    private static List<Attempt> readAttempts(JsonCursor c, ReadContext ctx, int opIndex, Scratch scratch)
            throws IOException, InputException {
        if (c.isNull()) {
            return null;
        }
        c.expectArray("the attempts");
        List<Attempt> attempts = scratch.attempts;
        attempts.clear();
        AttemptDraft d = scratch.attempt;
        while (c.next() != JsonToken.END_ARRAY) {
            LimitChecks.attempts(ctx.limits(), attempts.size() + 1, "operation", "attempts", scratch.errorAt);
            c.expectObject("an attempt");
            JsonLocation at = c.tokenLocation();
            long line = JsonCursor.line(at);
            long column = JsonCursor.column(at);
            d.clear();
            long seen = 0;
            while (c.next() == JsonToken.FIELD_NAME) {
                int field = AttemptDraft.MASK.position(seen, c.parser().currentName(), c);
                seen |= 1L << field;
                c.valueOfCheckedField();
                d.bind(field, c);
            }
            attempts.add(d.build(ctx, line, column, OPERATIONS, opIndex, ATTEMPTS, attempts.size()));
        }
        attempts.sort(Attempt.BY_ID);
        return immutable(attempts);
    }

    private static List<Check> readChecks(JsonCursor c, ReadContext ctx, int opIndex, Scratch scratch)
            throws IOException, InputException {
        if (c.isNull()) {
            return List.of();
        }
        c.expectArray("the checks");
        List<Check> checks = scratch.checks;
        checks.clear();
        CheckDraft d = scratch.check;
        while (c.next() != JsonToken.END_ARRAY) {
            c.expectObject("a check");
            Location at = ctx.location(c, OPERATIONS + opIndex + "/checks/" + checks.size());
            d.clear();
            long seen = 0;
            while (c.next() == JsonToken.FIELD_NAME) {
                int field = CheckDraft.MASK.position(seen, c.parser().currentName(), c);
                seen |= 1L << field;
                c.valueOfCheckedField();
                d.bind(field, c);
            }
            checks.add(d.build(at));
        }
        return immutable(checks);
    }

    /** An unmodifiable copy of a scratch list, made without a second copy when the operation takes it. */
    private static <T> List<T> immutable(List<T> scratch) {
        return switch (scratch.size()) {
            case 0 -> List.of();
            case 1 -> List.of(scratch.get(0));
            case 2 -> List.of(scratch.get(0), scratch.get(1));
            default -> List.copyOf(scratch);
        };
    }

    /** What reading one operation after another reuses: the drafts, the lists they fill, the error placer. */
    private static final class Scratch {
        final OperationDraft operation = new OperationDraft();
        final Operation.Builder op = Operation.builder();
        final AttemptDraft attempt = new AttemptDraft();
        final CheckDraft check = new CheckDraft();
        final List<Attempt> attempts = new ArrayList<>();
        final List<Check> checks = new ArrayList<>();
        final Function<String, InputException> errorAt;

        Scratch(JsonCursor c) {
            errorAt = c::error;
        }
    }
}

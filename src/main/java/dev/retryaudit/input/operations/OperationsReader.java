package dev.retryaudit.input.operations;

import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.input.InputException;
import dev.retryaudit.input.json.FieldMask;
import dev.retryaudit.input.json.JsonCursor;
import dev.retryaudit.input.reader.Drafts;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.input.reader.TraceReader;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Check;
import dev.retryaudit.model.Field;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.RawJson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Reads the native {@code operations} document one operation at a time, never as one tree. */
public final class OperationsReader implements TraceReader {
    private static final List<String> TOP_FIELDS = List.of("version", "source", "operations", "$schema");
    private static final List<String> OPERATION_FIELDS = Stream.concat(
            Stream.of("id", "idempotency_key", "run_id", "attempts", "checks", "attributes"),
            OperationDraft.FIELDS.stream()).toList();
    private static final FieldMask TOP_MASK = new FieldMask(TOP_FIELDS);
    private static final FieldMask OPERATION_MASK = new FieldMask(OPERATION_FIELDS);
    private static final FieldMask ATTEMPT_MASK = new FieldMask(AttemptDraft.FIELDS);
    private static final FieldMask CHECK_MASK = new FieldMask(CheckDraft.FIELDS);

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
                    while (c.next() != JsonToken.END_ARRAY) {
                        ctx.sink().accept(readOperation(c, ctx, index++));
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

    private static Operation readOperation(JsonCursor c, ReadContext ctx, int index) throws IOException, InputException {
        c.expectObject("an operation");
        String pointer = "/operations/" + index;
        Location at = ctx.location(c, pointer);
        OperationDraft common = new OperationDraft();
        String id = null;
        String key = null;
        String runId = null;
        RawJson attributes = null;
        List<Attempt> attempts = null;
        List<Check> checks = List.of();
        long seen = 0;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            seen = OPERATION_MASK.mark(seen, name, c);
            c.valueOfCheckedField();
            if (common.bind(name, c)) {
                continue;
            }
            switch (name) {
                case "id" -> id = c.optString();
                case "idempotency_key" -> key = c.optString();
                case "run_id" -> runId = c.optSharedString();
                case "attributes" -> attributes = c.optObjectCopy();
                case "attempts" -> attempts = readAttempts(c, ctx, pointer);
                case "checks" -> checks = readChecks(c, ctx, pointer);
                default -> throw c.unknownField(name, OPERATION_FIELDS);
            }
        }
        if (id == null || common.tool() == null || attempts == null) {
            throw Drafts.missing(at, id == null ? "id" : common.tool() == null ? "tool" : "attempts");
        }
        if (attempts.isEmpty()) {
            throw InputException.rejected(at.source(), at.line(), at.column(), Drafts.pathOf(at) + ".attempts",
                    "an operation needs at least one attempt");
        }
        attempts.sort(Attempt.BY_ID);
        return new Operation(id, common.tool(), common.effect(), common.method(), common.target(), key, runId,
                common.parent(), common.deadlineMs(), common.reportedOutcome(), common.clock(), attempts, checks,
                attributes, at, Field.ALL);
    }

    private static List<Attempt> readAttempts(JsonCursor c, ReadContext ctx, String opPointer)
            throws IOException, InputException {
        if (c.isNull()) {
            return null;
        }
        c.expectArray("the attempts");
        List<Attempt> attempts = new ArrayList<>();
        while (c.next() != JsonToken.END_ARRAY) {
            ctx.limits().checkAttempts(attempts.size() + 1, "operation", "attempts", c::error);
            c.expectObject("an attempt");
            Location at = ctx.location(c, opPointer + "/attempts/" + attempts.size());
            AttemptDraft d = new AttemptDraft();
            long seen = 0;
            while (c.next() == JsonToken.FIELD_NAME) {
                String name = c.parser().currentName();
                seen = ATTEMPT_MASK.mark(seen, name, c);
                c.valueOfCheckedField();
                if (!d.bind(name, c)) {
                    throw c.unknownField(name, AttemptDraft.FIELDS);
                }
            }
            attempts.add(d.build(at));
        }
        return attempts;
    }

    private static List<Check> readChecks(JsonCursor c, ReadContext ctx, String opPointer)
            throws IOException, InputException {
        if (c.isNull()) {
            return List.of();
        }
        c.expectArray("the checks");
        List<Check> checks = new ArrayList<>();
        while (c.next() != JsonToken.END_ARRAY) {
            c.expectObject("a check");
            Location at = ctx.location(c, opPointer + "/checks/" + checks.size());
            CheckDraft d = new CheckDraft();
            long seen = 0;
            while (c.next() == JsonToken.FIELD_NAME) {
                String name = c.parser().currentName();
                seen = CHECK_MASK.mark(seen, name, c);
                c.valueOfCheckedField();
                if (!d.bind(name, c)) {
                    throw c.unknownField(name, CheckDraft.FIELDS);
                }
            }
            checks.add(d.build(at));
        }
        return checks;
    }
}

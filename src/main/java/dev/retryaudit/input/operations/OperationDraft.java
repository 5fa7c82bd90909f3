package dev.retryaudit.input.operations;

import dev.retryaudit.model.Operation;
import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.json.FieldMask;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.model.values.Clock;
import dev.retryaudit.model.Effect;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.values.ParentRef;
import dev.retryaudit.model.ReportedOutcome;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The operation fields that the operations format nests and the spans format repeats on every
 * line. Values sit in one array so that span lines can be merged and compared
 * field by field.
 */
final class OperationDraft {
    static final List<String> FIELDS = List.of("tool", "effect", "method", "target", "deadline_ms",
            "reported_outcome", "clock", "parent");
    /** Duplicate detection and dispatch for these fields: a name's position is its index in {@link #values}. */
    static final FieldMask MASK = new FieldMask(FIELDS);
    private static final List<String> PARENT_FIELDS = List.of("operation", "attempt");
    private static final FieldMask PARENT_MASK = new FieldMask(PARENT_FIELDS);

    final Object[] values = new Object[FIELDS.size()];

    String tool() {
        return (String) values[0];
    }

    Effect effect() {
        return (Effect) values[1];
    }

    String method() {
        return (String) values[2];
    }

    String target() {
        return (String) values[3];
    }

    Long deadlineMs() {
        return (Long) values[4];
    }

    ReportedOutcome reportedOutcome() {
        return (ReportedOutcome) values[5];
    }

    Clock clock() {
        return (Clock) values[6];
    }

    ParentRef parent() {
        return (ParentRef) values[7];
    }

    /** Sets these fields on {@code b}: the tool, effect, method, target, deadline, reported outcome, clock and parent. */
    Operation.Builder fill(Operation.Builder b) {
        ParentRef parent = parent();
        return b.tool(tool()).effect(effect()).method(method()).target(target()).deadlineMs(deadlineMs())
                .reportedOutcome(reportedOutcome()).serverClock(clock() == Clock.SERVER)
                .parent(parent == null ? null : parent.operation(), parent == null ? 0 : parent.attempt());
    }

    /** Reads the value of field {@code name} if it is a shared operation field; false when it is not one. */
    boolean bind(String name, JsonCursor c) throws IOException, InputException {
        int field = MASK.position(name);
        return field >= 0 && bind(field, c);
    }

    /** Reads the value of field number {@code field} of {@link #FIELDS}, as {@link #MASK} numbers them; false for none. */
    boolean bind(int field, JsonCursor c) throws IOException, InputException {
        switch (field) {
            case 0 -> values[0] = c.optSharedString();
            case 1 -> values[1] = c.optEnum(Effect.class);
            case 2 -> values[2] = c.optSharedString();
            case 3 -> values[3] = c.optSharedString();
            case 4 -> values[4] = c.optLong(1, Long.MAX_VALUE / 2);
            case 5 -> values[5] = c.optEnum(ReportedOutcome.class);
            case 6 -> values[6] = c.optEnum(Clock.class);
            case 7 -> values[7] = parent(c);
            default -> {
                return false;
            }
        }
        return true;
    }

    /** Forgets every field, for the next object. */
    void clear() {
        Arrays.fill(values, null);
    }

    /**
     * This draft with the fields that {@code line} sets and this one does not: this draft itself when
     * there are none, else a new draft (drafts held for an operation are shared, never changed).
     */
    OperationDraft with(OperationDraft line) {
        OperationDraft out = this;
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null && line.values[i] != null) {
                if (out == this) {
                    out = new OperationDraft();
                    System.arraycopy(values, 0, out.values, 0, values.length);
                }
                out.values[i] = line.values[i];
            }
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OperationDraft d && Arrays.equals(values, d.values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    /** The index of the first field set in both drafts to different values, or -1. */
    int firstDisagreement(OperationDraft other) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] != null && other.values[i] != null && !Objects.equals(values[i], other.values[i])) {
                return i;
            }
        }
        return -1;
    }

    private static ParentRef parent(JsonCursor c) throws IOException, InputException {
        if (c.isNull()) {
            return null;
        }
        c.expectObject("a parent reference {\"operation\": ID, \"attempt\": N}");
        String path = c.path();
        long line = c.line();
        long column = c.column();
        String operation = null;
        Integer attempt = null;
        long seen = 0;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            seen = PARENT_MASK.mark(seen, name, c);
            c.valueOfCheckedField();
            switch (name) {
                case "operation" -> operation = c.optString();
                case "attempt" -> attempt = c.optInt(1, Integer.MAX_VALUE);
                default -> throw c.unknownField(name, PARENT_FIELDS);
            }
        }
        if (operation == null || attempt == null) {
            throw InputException.rejected(c.source(), line, column, path,
                    "missing required field " + (operation == null ? "operation" : "attempt"));
        }
        return new ParentRef(operation, attempt);
    }
}

package dev.retryaudit.input.operations;

import dev.retryaudit.json.FieldMask;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.input.reader.Drafts;
import dev.retryaudit.model.Check;
import dev.retryaudit.model.CheckResult;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Location;
import dev.retryaudit.text.Times;
import java.time.Instant;
import java.io.IOException;
import java.util.List;

/** The fields of a reconcile read, shared by the operations and spans readers. */
final class CheckDraft {
    /** The fields, in the order of the cases of {@link #bind(int, JsonCursor)}. */
    static final List<String> FIELDS = List.of("after_attempt", "at", "kind", "result", "count");
    /** Duplicate detection and dispatch for the check fields. */
    static final FieldMask MASK = new FieldMask(FIELDS);

    Integer afterAttempt;
    long at = Times.NONE;
    String kind;
    CheckResult result;
    Long count;

    /** Forgets every field, for the next object. */
    void clear() {
        afterAttempt = null;
        at = Times.NONE;
        kind = null;
        result = null;
        count = null;
    }

    /** Reads the value of field {@code name} if it is a check field; false when it is not one. */
    boolean bind(String name, JsonCursor c) throws IOException, InputException {
        int field = MASK.position(name);
        return field >= 0 && bind(field, c);
    }

    /** Reads the value of field number {@code field} of {@link #FIELDS}, as {@link #MASK} numbers them; false for none. */
    boolean bind(int field, JsonCursor c) throws IOException, InputException {
        switch (field) {
            case 0 -> afterAttempt = c.optInt(1, Integer.MAX_VALUE);
            case 1 -> at = c.optTimestamp();
            case 2 -> kind = c.optSharedString();
            case 3 -> result = c.optEnum(CheckResult.class);
            case 4 -> count = c.optLong(0, Long.MAX_VALUE);
            default -> {
                return false;
            }
        }
        return true;
    }

    /** Builds the check, or names the first required field that is missing. */
    Check build(Location location) throws InputException {
        if (afterAttempt == null) {
            throw Drafts.missing(location, "after_attempt");
        }
        if (result == null) {
            throw Drafts.missing(location, "result");
        }
        return new Check(afterAttempt, Times.present(at) ? Instant.ofEpochMilli(at) : null, kind, result, count, location);
    }
}

package dev.retryaudit.input.operations;

import dev.retryaudit.input.InputException;
import dev.retryaudit.input.json.JsonCursor;
import dev.retryaudit.input.reader.Drafts;
import dev.retryaudit.model.Check;
import dev.retryaudit.model.CheckResult;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Times;
import java.io.IOException;
import java.util.List;

/** The fields of a reconcile read, shared by the operations and spans readers. */
final class CheckDraft {
    static final List<String> FIELDS = List.of("after_attempt", "at", "kind", "result", "count");

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
        switch (name) {
            case "after_attempt" -> afterAttempt = c.optInt(1, Integer.MAX_VALUE);
            case "at" -> at = c.optTimestamp();
            case "kind" -> kind = c.optSharedString();
            case "result" -> result = c.optEnum(CheckResult.class);
            case "count" -> count = c.optLong(0, Long.MAX_VALUE);
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
        return new Check(afterAttempt, at, kind, result, count, location);
    }
}

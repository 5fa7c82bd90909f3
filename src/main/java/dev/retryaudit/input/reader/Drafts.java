package dev.retryaudit.input.reader;

import dev.retryaudit.json.JsonPointers;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Location;

/** Errors shared by the drafts that readers fill field by field. */
public final class Drafts {
    private Drafts() {
    }

    /** A required field absent from the object that starts at {@code at}. */
    public static InputException missing(Location at, String field) {
        return InputException.rejected(at.source(), at.line(), at.column(), pathOf(at), "missing required field " + field);
    }

    /** The JSON path of the object at {@code at}: from its pointer, or "$" for a JSON Lines record. */
    public static String pathOf(Location at) {
        return at.pointer() == null ? "$" : JsonPointers.toPath(at.pointer());
    }
}

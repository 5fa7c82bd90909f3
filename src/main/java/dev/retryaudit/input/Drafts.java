package dev.retryaudit.input;

import dev.retryaudit.model.Location;

/** Errors shared by the drafts that readers fill field by field. */
final class Drafts {
    private Drafts() {
    }

    /** A required field absent from the object that starts at {@code at}. */
    static InputException missing(Location at, String field) {
        return InputException.rejected(at.source(), at.line(), at.column(), pathOf(at), "missing required field " + field);
    }

    /** The JSON path of the object at {@code at}: from its pointer, or "$" for a JSON Lines record. */
    static String pathOf(Location at) {
        return at.pointer() == null ? "$" : JsonPointers.toPath(at.pointer());
    }
}

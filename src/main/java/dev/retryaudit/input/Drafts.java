package dev.retryaudit.input;

import dev.retryaudit.model.Location;

/** Errors shared by the drafts that readers fill field by field. */
final class Drafts {
    private Drafts() {
    }

    /** A required field absent from the object that starts at {@code at}. */
    static InputException missing(Location at, String path, String field) {
        return InputException.rejected(at.source(), at.line(), at.column(), path, "missing required field " + field);
    }
}

package dev.retryaudit.text;

import dev.retryaudit.model.InputError;

/** The one-line diagnostic of an input error, {@code FILE:LINE:COL: error: PATH: MESSAGE}, safe to print on a terminal. */
public final class Diagnostics {
    private Diagnostics() {
    }

    public static String line(InputError e) {
        String where = Escaping.controls(e.source()) + (e.line() > 0 ? ":" + e.line() + ":" + e.column() : "");
        return where + ": error: " + Escaping.controls(e.message());
    }
}

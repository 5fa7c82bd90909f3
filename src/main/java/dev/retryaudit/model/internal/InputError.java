package dev.retryaudit.model.internal;

import dev.retryaudit.model.Limit;
import dev.retryaudit.text.Escaping;
import java.io.Serializable;
import java.util.Objects;

/**
 * Why an input could not be audited, as reports print it: unreadable (no line) or rejected at a
 * line, column and JSON path, with what is wrong ({@code detail}, a fact), the {@link Limit} that was
 * exceeded (null when none was) and, once the caller added one, a {@code hint} saying how to get past
 * it in the caller's own terms (a command-line option, a library setting, a tool argument). It never
 * holds input bytes beyond the source name.
 */
public record InputError(boolean unreadable, String source, long line, long column, String path, String detail,
        Limit limit, String hint) implements Serializable {
    public InputError {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(detail, "detail");
    }

    /** The same error with {@code hint} (null for none) in place of any earlier one. */
    public InputError withHint(String hint) {
        return new InputError(unreadable, source, line, column, path, detail, limit, hint);
    }

    /** What is wrong, then the hint if there is one: {@code detail; hint}. */
    public String explanation() {
        return hint == null ? detail : detail + "; " + hint;
    }

    /** The message without the location: the path, then the explanation. */
    public String message() {
        return path == null ? explanation() : path + ": " + explanation();
    }

    /** The one-line diagnostic {@code FILE:LINE:COL: error: PATH: MESSAGE}, safe to print on a terminal. */
    public String diagnostic() {
        String where = Escaping.controls(source) + (line > 0 ? ":" + line + ":" + column : "");
        return where + ": error: " + Escaping.controls(message());
    }
}

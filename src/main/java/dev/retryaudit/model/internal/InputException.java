package dev.retryaudit.model.internal;


import dev.retryaudit.model.Limit;
import java.util.function.Function;

/**
 * An input that cannot be audited: rejected (malformed, invalid, over a limit: exit 65) or
 * unreadable (missing, not a file: exit 66). {@code line}/{@code column} are 0 when unknown;
 * {@code path} is the JSON path ({@code $.operations[3].id}) or null. An input over a limit names the
 * {@link Limit}; the message states the fact only, and each caller says in its own terms how to raise
 * the limit ({@link #error(Function)}).
 */
public final class InputException extends Exception {
    private static final long serialVersionUID = 1L;

    /** Why the input could not be audited. */
    public enum Kind {
        REJECTED,
        UNREADABLE
    }

    private final Kind kind;
    private final String source;
    private final long line;
    private final long column;
    private final String path;
    private final String detail;
    private final Limit limit;

    public InputException(Kind kind, String source, long line, long column, String path, String detail) {
        this(kind, source, line, column, path, detail, null);
    }

    private InputException(Kind kind, String source, long line, long column, String path, String detail,
            Limit limit) {
        super(source + ":" + line + ":" + column + ": " + detail);
        this.kind = kind;
        this.source = source;
        this.line = line;
        this.column = column;
        this.path = path;
        this.detail = detail;
        this.limit = limit;
    }

    /** A rejected input at a place in it. */
    public static InputException rejected(String source, long line, long column, String path, String detail) {
        return new InputException(Kind.REJECTED, source, line, column, path, detail);
    }

    /** A source that could not be read at all. */
    public static InputException unreadable(String source, String detail) {
        return new InputException(Kind.UNREADABLE, source, 0, 0, null, detail);
    }

    /** The same error, caused by exceeding {@code exceeded}. */
    public InputException over(Limit exceeded) {
        return new InputException(kind, source, line, column, path, detail, exceeded);
    }

    public Kind kind() {
        return kind;
    }

    public String source() {
        return source;
    }

    public long line() {
        return line;
    }

    public long column() {
        return column;
    }

    public String path() {
        return path;
    }

    /** The limit the input exceeded, or null when it was rejected for something else. */
    public Limit limit() {
        return limit;
    }

    /** What is wrong, without the location or the path. */
    public String detail() {
        return detail;
    }

    /** The message without the location: the path, then what is wrong. */
    public String message() {
        return error().message();
    }

    /** The error as reports print it, stating the fact only. */
    public InputError error() {
        return new InputError(kind == Kind.UNREADABLE, source, line, column, path, detail, limit, null);
    }

    /** The error with {@code hints}' word on how to raise the limit that was exceeded, if one was. */
    public InputError error(Function<Limit, String> hints) {
        return limit == null ? error() : error().withHint(hints.apply(limit));
    }

    /** The one-line diagnostic {@code FILE:LINE:COL: error: MESSAGE}, safe to print on a terminal; the fact only. */
    public String diagnostic() {
        return error().diagnostic();
    }
}

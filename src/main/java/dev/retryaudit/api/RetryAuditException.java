package dev.retryaudit.api;

import dev.retryaudit.model.Limit;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.internal.InputError;
import dev.retryaudit.model.internal.InputException;
import java.util.function.Function;

/**
 * An input that could not be read or a policy that could not be applied. The message is the tool's
 * one-line diagnostic, {@code FILE:LINE:COL: error: PATH: MESSAGE}, and never echoes input bytes; an
 * input over a limit names the {@link Limit} and says which {@link Limits} setting raises it.
 */
public final class RetryAuditException extends Exception {
    private static final long serialVersionUID = 2L;

    /** What to do when the Java heap is too small for the input, on a command line. */

    private final InputError error;

    private RetryAuditException(InputError error, InputException cause) {
        super(error.diagnostic(), cause);
        this.error = error;
    }

    /** The input error as a library caller reads it: the limit, when one was exceeded, in the API's terms. */
    static RetryAuditException of(InputException e) {
        return new RetryAuditException(e.error(RetryAuditException::hint), e);
    }

    /** Whether the source could not be read at all (missing, not a file: exit 66), rather than rejected at a place in it (65). */
    public boolean unreadable() {
        return error.unreadable();
    }

    /** The source's name, as the audit named it. */
    public String source() {
        return error.source();
    }

    /** The 1-based line of the place the input was rejected at; 0 when the error is about the whole source. */
    public long line() {
        return error.line();
    }

    /** The 1-based column of that place; 0 with line 0. */
    public long column() {
        return error.column();
    }

    /** The JSON path of the value at fault ({@code $.operations[3].id}), or null when there is none. */
    public String path() {
        return error.path();
    }

    /** What is wrong, a fact, without the place, the path or a hint. */
    public String detail() {
        return error.detail();
    }

    /** The limit the input exceeded, or null when it was rejected for something else. */
    public Limit limit() {
        return error.limit();
    }

    /** How to raise that limit, in the library's terms (a {@link Limits} component); null when no limit was exceeded. */
    public String hint() {
        return error.hint();
    }

    /**
     * The one-line diagnostic as the command lines print it (the tool's and the Spark job's): a limit
     * exceeded names the {@code --limit-*} option that raises it.
     */
    public String commandLineDiagnostic() {
        return commandLineError().diagnostic();
    }

    /**
     * How a command line says to raise {@code limit}, for example {@code raise it with --limit-string}; for
     * {@link Limit#MEMORY}, to give Java more heap.
     */
    public static String commandLineHint(Limit limit) {
        return limit == Limit.MEMORY ? "give Java more heap (java -Xmx4g -jar retry-audit.jar ...), lower "
                + Setting.LIMIT_BYTES.option() + ", or split the input" : Limits.raiseWith(limit, Setting.of(limit).option());
    }

    /**
     * The one-line diagnostic with a limit exceeded named in a front end's own terms: {@code hints} says how to
     * raise it (for example {@code raise it with the argument limits.bytes}).
     */
    public String diagnostic(Function<Limit, String> hints) {
        return input().error(hints).diagnostic();
    }

    /** The error as the command lines print it: a limit exceeded names the option that raises it. */
    InputError commandLineError() {
        return input().error(RetryAuditException::commandLineHint);
    }

    /** The error as reports print it. */
    InputError error() {
        return error;
    }

    /** The error as the reader raised it, for the surfaces that word the limit hints their own way. */
    InputException input() {
        return (InputException) getCause();
    }

    /** How a library caller raises {@code limit}: the {@link Limits} component given to {@code AuditSettings.Builder.limits}. */
    static String hint(Limit limit) {
        String component = switch (limit) {
            case BYTES, OPERATIONS, DEPTH -> limit.id();
            case ATTEMPTS -> "attemptsPerOperation";
            case STRING -> "stringLength";
            case MEMORY -> null;
        };
        return component == null ? "give the JVM more heap (-Xmx), lower Limits.bytes, or split the input"
                : Limits.raiseWith(limit, "Limits." + component + " (AuditSettings.Builder.limits)");
    }
}

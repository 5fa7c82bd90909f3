package dev.retryaudit.api;

/**
 * The exit codes of every process that runs an audit (the command line and the Spark job), and the one mapping
 * from a library error to its code ({@link #of}). The command line's help lists them.
 */
public enum ExitCode {
    /** 0: the audit ran; no finding at or above {@code --fail-on}. */
    CLEAN(0, "the audit ran; no finding at or above --fail-on"),
    /** 2: the audit ran; at least one finding at or above {@code --fail-on} (set {@code --fail-on never} to always pass). */
    FINDINGS(2, "the audit ran; at least one finding at or above --fail-on"),
    /** 64: usage error: unknown option, bad option value, missing argument. */
    USAGE(64, "usage error: unknown option, bad option value, missing argument"),
    /**
     * 65: input rejected: malformed JSON, schema violation, unknown field, limit exceeded (raise with --limit-*),
     * ambiguous format, or too large for the Java heap (out of memory).
     */
    DATA(65, "input rejected: malformed JSON, schema violation, limit exceeded, unclear format, out of memory"),
    /** 66: an input file, {@code --policy} or {@code --baseline} does not exist or cannot be read. */
    NO_INPUT(66, "an input file (or --policy, --baseline) does not exist or cannot be read"),
    /** 70: internal error: a bug; {@code --debug} shows the stack trace. */
    SOFTWARE(70, "internal error: a bug; please report it (--debug shows the stack trace)"),
    /** 74: the report could not be written ({@code --output} not writable, disk full). */
    CANT_WRITE(74, "the report could not be written (disk full, --output not writable)");

    private final int code;
    private final String meaning;

    ExitCode(int code, String meaning) {
        this.code = code;
        this.meaning = meaning;
    }

    /** The code of an audit that failed on {@code e}: an input, policy or baseline that cannot be read, or is rejected. */
    public static ExitCode of(RetryAuditException e) {
        return e.error().unreadable() ? NO_INPUT : DATA;
    }

    public int code() {
        return code;
    }

    public String meaning() {
        return meaning;
    }
}

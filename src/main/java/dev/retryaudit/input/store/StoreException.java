package dev.retryaudit.input.store;

/**
 * A trace store that could not be asked ({@link #unreachable}: not found, refused, timed out), or whose
 * answer is not what its API documents: the message says which, in one line, without the answer's bytes
 * beyond a short escaped excerpt.
 */
public final class StoreException extends Exception {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final boolean unreachable;

    StoreException(String source, boolean unreachable, String message) {
        super(message);
        this.source = source;
        this.unreachable = unreachable;
    }

    /** The store's name as the report names it ({@code zipkin:http://host:9411}). */
    public String source() {
        return source;
    }

    /** Whether the store could not be reached or holds no such trace (exit 66), rather than answered wrongly (65). */
    public boolean unreachable() {
        return unreachable;
    }
}

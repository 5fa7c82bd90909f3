package dev.retryaudit.http;

/**
 * The wait an answer asked for, as the rules judge it and the clients that read both fields take it:
 * {@code retry-after-ms} (in whole seconds, rounded up) wins over {@code Retry-After}.
 */
public final class AskedWait {
    private AskedWait() {
    }

    /** The wait as a Retry-After value: {@code retryAfterMs} rounded up to seconds, else {@code retryAfter}; null when neither was sent. */
    public static String of(String retryAfter, Long retryAfterMs) {
        return retryAfterMs == null ? retryAfter : Long.toString(Math.floorDiv(retryAfterMs + 999, 1000L));
    }
}

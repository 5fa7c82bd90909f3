package dev.retryaudit.input.foreign;

import dev.retryaudit.json.Decimal;

/**
 * Request and response headers that foreign formats record and the audit reads besides Idempotency-Key,
 * Retry-After and Date: a client's own retry counter and Retry-After in milliseconds.
 */
public final class Headers {
    /** The retry counter the Stainless-generated SDKs (OpenAI, Anthropic) send: 0 first, n on the n-th retry. */
    public static final String RETRY_COUNT = "x-stainless-retry-count";
    /** Retry-After in milliseconds, which those SDKs honour before Retry-After. */
    public static final String RETRY_AFTER_MS = "retry-after-ms";

    /** The AWS SDKs' attempt header, {@code attempt=N; max=M}: 1 on the first send. */
    public static final String SDK_ATTEMPT = "amz-sdk-request";

    private Headers() {
    }

    /** An {@code amz-sdk-request} value's attempt as a resend count, or null when it names none. */
    public static Integer sdkAttempt(String value) {
        if (value == null) {
            return null;
        }
        for (String part : value.split(";")) {
            String p = part.strip();
            if (p.startsWith("attempt=")) {
                Integer n = retryCount(p.substring("attempt=".length()));
                return n == null || n < 1 ? null : n - 1;
            }
        }
        return null;
    }

    /** A retry counter's value as a resend count, or null when absent or not a small decimal integer. */
    public static Integer retryCount(String value) {
        if (value == null) {
            return null;
        }
        String v = value.strip();
        return v.isEmpty() || v.length() > 6 || !Decimal.isDigits(v, 0) ? null : Integer.valueOf(v);
    }

    /**
     * A {@code retry-after-ms} value as the Retry-After delay-seconds it asks for at least: the whole
     * seconds, rounded down so a client that waited the milliseconds asked is never read as early;
     * null when absent or not a non-negative number.
     */
    public static String retryAfterFromMillis(String value) {
        if (value == null) {
            return null;
        }
        String v = value.strip();
        int dot = v.indexOf('.');
        String whole = dot < 0 ? v : v.substring(0, dot);
        if (whole.isEmpty() || whole.length() > 15 || !Decimal.isDigits(whole, 0)
                || dot >= 0 && (dot == v.length() - 1 || !Decimal.isDigits(v, dot + 1))) {
            return null;
        }
        return Long.toString(Long.parseLong(whole) / 1000);
    }
}

package dev.retryaudit.rules.grpc;

/**
 * A {@code grpc-retry-pushback-ms} value as gRFC A6 reads it: a non-negative integer is the delay in
 * milliseconds before the next attempt; anything else (negative, fractional, not a number) tells the
 * client not to retry at all.
 */
public final class RetryPushback {
    /** The value {@link #delayMs} gives for a pushback that says not to retry. */
    public static final long STOP = -1;

    private RetryPushback() {
    }

    /** The delay in milliseconds {@code raw} asks for (saturating at {@link Long#MAX_VALUE}), or {@link #STOP}. */
    public static long delayMs(String raw) {
        String v = raw.strip();
        if (v.isEmpty() || !digits(v, 0)) {
            return STOP;
        }
        long ms = 0;
        for (int i = 0; i < v.length(); i++) {
            int d = v.charAt(i) - '0';
            ms = ms > (Long.MAX_VALUE - d) / 10 ? Long.MAX_VALUE : ms * 10 + d;
        }
        return ms;
    }

    private static boolean digits(String s, int from) {
        for (int i = from; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** Why {@code raw} says not to retry, in words; call only when {@link #delayMs} gave {@link #STOP}. */
    public static String whyStop(String raw) {
        String v = raw.strip();
        if (v.startsWith("-") && v.length() > 1 && digits(v, 1)) {
            return "a negative pushback";
        }
        return v.isEmpty() ? "an empty pushback" : "a pushback that is not a whole number of milliseconds";
    }
}

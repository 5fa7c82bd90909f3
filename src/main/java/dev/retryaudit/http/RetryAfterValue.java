package dev.retryaudit.http;

import dev.retryaudit.text.Times;
import dev.retryaudit.text.Wire;

/**
 * A Retry-After field value (RFC 9110 §10.2.3): {@code delay-seconds} ({@code 1*DIGIT}, counted
 * from receipt of the response) or an {@code HTTP-date}. Optional whitespace around the value is
 * ignored, as an HTTP parser strips it from every field value; nothing else is forgiven (no sign,
 * fraction, exponent or {@code inf}). A delay too large for a {@code long} saturates at
 * {@link Long#MAX_VALUE} seconds instead of wrapping into a negative wait.
 *
 * @param seconds the delay, for {@link Form#DELAY_SECONDS}; 0 for a date
 * @param date the date in epoch milliseconds, for {@link Form#HTTP_DATE}; {@link Times#NONE} for a delay
 */
public record RetryAfterValue(Form form, long seconds, long date) {

    /** The two forms the field may take. */
    public enum Form {
        DELAY_SECONDS,
        HTTP_DATE;

        /** The name used in evidence: {@code delay-seconds} or {@code http-date}. */
        public String id() {
            return Wire.name(this, '-');
        }
    }

    /**
     * The value of {@code raw}, or null when it is neither form. {@code referenceMillis}, when the
     * value was received, resolves an RFC 850 two-digit year (see {@link HttpDate#parse}).
     */
    public static RetryAfterValue parse(String raw, long referenceMillis) {
        String value = HttpDate.stripOws(raw);
        if (value.isEmpty()) {
            return null;
        }
        if (isDigit(value.charAt(0))) {
            long seconds = 0;
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (!isDigit(c)) {
                    return null;
                }
                seconds = seconds > (Long.MAX_VALUE - (c - '0')) / 10 ? Long.MAX_VALUE : seconds * 10 + (c - '0');
            }
            return new RetryAfterValue(Form.DELAY_SECONDS, seconds, Times.NONE);
        }
        long date = HttpDate.parse(value, referenceMillis);
        return Times.present(date) ? new RetryAfterValue(Form.HTTP_DATE, 0, date) : null;
    }

    /** The value of {@code raw} with no time it was received at, or null when it is neither form. */
    public static RetryAfterValue parse(String raw) {
        return parse(raw, Times.NONE);
    }

    /** Why {@code raw} is not a Retry-After value, in words for a message; call only when {@link #parse} gave null. */
    public static String whyInvalid(String raw) {
        String value = HttpDate.stripOws(raw);
        if (value.isEmpty()) {
            return "it is empty";
        }
        if (value.matches("[+-]\\d.*")) {
            return "delay-seconds has no sign";
        }
        if (value.matches("\\d+[.,eE].*")) {
            return "delay-seconds must be whole seconds, without fraction or exponent";
        }
        if (value.matches("(?i)[+-]?(inf|infinity|nan)")) {
            return "delay-seconds must be a finite number";
        }
        if (value.matches(".*\\d.*") && value.matches("(?s).*\\b(GMT|UTC|Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|May"
                + "|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\\b.*")) {
            return "a date must be an IMF-fixdate, RFC 850 or asctime date in GMT";
        }
        return "it is neither a number of seconds nor an HTTP-date";
    }

    /**
     * When the server allows the next request, on the clock of {@code responseAt}: the response time
     * plus the delay (saturating); for a date, the date, shifted by the response's {@code Date} header
     * ({@code responseDate}, or {@link Times#NONE}) when both times are known, so that a skewed server
     * clock does not count.
     */
    public long waitUntil(long responseAt, long responseDate) {
        if (form == Form.DELAY_SECONDS) {
            return saturatingAdd(responseAt, delayMillis());
        }
        if (Times.present(responseDate) && Times.present(responseAt)) {
            return responseAt + (date - responseDate);
        }
        return date;
    }

    /** The delay in milliseconds, for {@link Form#DELAY_SECONDS}; saturates at {@link Long#MAX_VALUE}. */
    public long delayMillis() {
        return seconds > Long.MAX_VALUE / 1000 ? Long.MAX_VALUE : seconds * 1000;
    }

    private static long saturatingAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? (b > 0 ? Long.MAX_VALUE : Long.MIN_VALUE + 1) : sum;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}

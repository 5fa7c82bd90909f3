package dev.retryaudit.http;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.text.Times;

/**
 * The times of an attempt's response that its Retry-After counts from: when the response came (its
 * response time) and the server's {@code Date} header, each known or not. A rule asks whether each is
 * known before it reads it, as it does an attempt's times.
 */
public final class ResponseClock {
    private final long responseAt;
    private final long responseDate;

    private ResponseClock(long responseAt, long responseDate) {
        this.responseAt = responseAt;
        this.responseDate = responseDate;
    }

    /** The response times of {@code a}: its response time, and its Date header read as an HTTP-date. */
    public static ResponseClock of(Attempt a) {
        long at = a.hasResponse() ? a.responseMillis() : Times.NONE;
        return new ResponseClock(at, a.responseDate() == null ? Times.NONE : HttpDate.parse(a.responseDate(), at));
    }

    /** The Retry-After value {@code raw}, an RFC 850 year resolved by the response time; null when it is neither form. */
    public RetryAfterValue retryAfter(String raw) {
        return RetryAfterValue.parse(raw, responseAt);
    }

    /** Whether the response time is known. */
    public boolean hasResponse() {
        return Times.present(responseAt);
    }

    /** The response time in epoch milliseconds; only when {@link #hasResponse()}. */
    public long responseMillis() {
        return known(responseAt, "response time");
    }

    /** Whether the response carried a Date header that is an HTTP-date. */
    public boolean hasDate() {
        return Times.present(responseDate);
    }

    /** The response's Date header in epoch milliseconds; only when {@link #hasDate()}. */
    public long dateMillis() {
        return known(responseDate, "Date header");
    }

    /** When {@code value} allows the next request, on the clock of the response time ({@link RetryAfterValue#waitUntil}). */
    public long waitUntil(RetryAfterValue value) {
        return value.waitUntil(responseAt, responseDate);
    }

    private static long known(long millis, String what) {
        if (!Times.present(millis)) {
            throw new IllegalStateException("the response has no " + what);
        }
        return millis;
    }
}

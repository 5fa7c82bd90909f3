package dev.retryaudit.junit;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * How the honouring clients of these tests read Retry-After (RFC 9110 §10.2.3): delay-seconds, or an
 * HTTP-date (a date already past asks for no wait); anything else, a negative or fractional number included,
 * is no answer, and the client backs off on its own. A client that will not wait longer than
 * {@link #MAX_WAIT} gives up instead.
 */
final class RetryAfter {
    /** The longest wait the honouring clients sit through. */
    static final Duration MAX_WAIT = Duration.ofSeconds(60);

    private RetryAfter() {
    }

    /** The wait a Retry-After value asks for, or empty when there is none or it is not valid. */
    static Optional<Duration> wait(String header) {
        if (header == null || header.isBlank()) {
            return Optional.empty();
        }
        String value = header.strip();
        if (value.chars().allMatch(Character::isDigit)) {
            return Optional.of(Duration.ofSeconds(Long.parseLong(value)));
        }
        try {
            Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            Duration d = Duration.between(Instant.now(), at);
            return Optional.of(d.isNegative() ? Duration.ZERO : d);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** The backoff of the {@code retry}th retry (1-based) when no wait was asked: 250 ms, doubled each time. */
    static Duration backoff(int retry) {
        return Duration.ofMillis(250L << Math.min(retry - 1, 6));
    }

    /** The wait before the {@code retry}th retry: what {@code header} asks, else the backoff. */
    static Duration before(int retry, String header) {
        return wait(header).orElse(backoff(retry));
    }

    /** Whether a response of {@code status} is retried: 429 and the server errors that may pass. */
    static boolean retryable(int status) {
        return status == 429 || status == 500 || status == 502 || status == 503 || status == 504 || status == 529;
    }

    /** {@code wait}, or an exception (the client gives up) when it is longer than {@link #MAX_WAIT}. */
    static Duration bounded(Duration wait) {
        if (wait.compareTo(MAX_WAIT) > 0) {
            throw new IllegalStateException("Retry-After asks for " + wait.toSeconds() + " s, over the "
                    + MAX_WAIT.toSeconds() + " s this client waits: giving up");
        }
        return wait;
    }

    /** Sleeps {@code wait}, or gives up as {@link #bounded} does. */
    static void sleep(Duration wait) throws InterruptedException {
        Thread.sleep(bounded(wait).toMillis());
    }
}

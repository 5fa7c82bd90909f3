package dev.retryaudit.probe;

import java.util.Objects;

/**
 * What the probe server answers: {@code failures} GETs with {@code status} and a Retry-After of
 * {@code delaySeconds} in {@code headerFormat}, then 200 up to {@code maxRequests} GETs, then 410.
 */
public record Scenario(int status, int failures, long delaySeconds, HeaderFormat headerFormat, int maxRequests) {
    public Scenario {
        Objects.requireNonNull(headerFormat, "headerFormat");
        if (status != 429 && status != 503) {
            throw new IllegalArgumentException("status must be 429 or 503");
        }
        if (failures < 1 || delaySeconds < 0 || maxRequests <= failures) {
            throw new IllegalArgumentException("bad scenario " + failures + "/" + delaySeconds + "/" + maxRequests);
        }
    }

    /** The status of the response to the {@code n}th GET (1-based). */
    public int statusOf(int n) {
        if (n <= failures) {
            return status;
        }
        return n <= maxRequests ? 200 : 410;
    }
}

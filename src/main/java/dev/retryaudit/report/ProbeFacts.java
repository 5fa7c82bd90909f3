package dev.retryaudit.report;

import java.util.List;
import java.util.Objects;

/**
 * What {@code retry-audit probe} observed beside the findings: the scenario it served, the client
 * it ran (an empty command when it only served), how the client ended, how many GETs it made,
 * whether one reached success, and whether it honoured Retry-After (null when no retry followed a
 * Retry-After, or the rule that judges it is not enabled).
 */
public record ProbeFacts(String url, int status, int failures, long delaySeconds, String headerFormat,
        List<String> command, Integer exitCode, boolean timedOut, long timeoutSeconds, int attempts,
        int otherRequests, boolean reachedSuccess, Boolean honouredRetryAfter) {

    public ProbeFacts {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(headerFormat, "headerFormat");
        command = List.copyOf(command);
    }
}

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

    /** One line for people: how the client ended, what it did, and whether it honoured Retry-After. */
    public String describe() {
        StringBuilder b = new StringBuilder();
        if (command.isEmpty()) {
            b.append("served for ").append(timeoutSeconds).append(" s: ");
        } else if (timedOut) {
            b.append("the client was killed at the ").append(timeoutSeconds).append(" s timeout: ");
        } else {
            b.append("the client exited with code ").append(exitCode).append(": ");
        }
        b.append(attempts).append(attempts == 1 ? " GET" : " GETs");
        if (otherRequests > 0) {
            b.append(" and ").append(otherRequests).append(otherRequests == 1 ? " request" : " requests")
                    .append(" of other methods");
        }
        b.append(reachedSuccess ? ", reached success" : ", did not reach success");
        if (honouredRetryAfter != null) {
            b.append(honouredRetryAfter ? ", honoured Retry-After" : ", came back before Retry-After allowed");
        }
        return b.toString();
    }
}

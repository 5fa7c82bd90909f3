package dev.retryaudit.report;

import java.util.List;
import java.util.Objects;

/**
 * What {@code retry-audit probe} observed beside the findings: the scenario it served, how the
 * client ended (an empty command when it only served), what arrived, the verdict with its reason,
 * the journal of requests with the wait each one asked for and the gap before it, and the file the
 * trace was kept in (null when it was not written).
 */
public record ProbeFacts(String url, Served scenario, ClientEnd client, Counts counts, String verdict, String reason,
        String obeyed, List<Request> requests, String traceFile) {

    /** The verdicts: the client did what the scenario asks, did not, or the run could not tell. */
    public static final String HONOURED = "honoured";
    public static final String VIOLATED = "violated";
    public static final String NOT_TESTED = "not_tested";

    public ProbeFacts {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(scenario, "scenario");
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(counts, "counts");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(reason, "reason");
        requests = List.copyOf(requests);
    }

    /** The scenario served: delays in seconds, used in turn; a stall of 0 means failures carry Retry-After. */
    public record Served(String method, int status, int failures, List<Long> delays, String headerFormat,
            long stallSeconds, boolean dedupesByKey, String keyHeader) {
        public Served {
            delays = List.copyOf(delays);
        }
    }

    /** The client as run ({url} replaced), its exit code (null when killed or none ran), whether the timeout killed it. */
    public record ClientEnd(List<String> command, Integer exitCode, boolean timedOut, long timeoutSeconds) {
        public ClientEnd {
            command = List.copyOf(command);
        }
    }

    /**
     * Requests of the scenario's method, of other methods, past the journal's capacity, those that never
     * arrived whole (no attempts), and the connections they came on.
     */
    public record Counts(int attempts, int otherRequests, long unrecorded, long unfinished, long connections,
            boolean reachedSuccess) {
    }

    /**
     * One journaled request of the scenario's method: the Retry-After headers of its answer and the
     * wait they asked for, the gap since the previous request, its idempotency key and the server's
     * commit state (null for reads), and how long the server held it (0 when not).
     */
    public record Request(int sequence, String received, int connection, Long gapMs, Sent sent, Answer answer) {
    }

    /** What a request sent: its idempotency key (null without one), the hash of its body and the body's length. */
    public record Sent(String idempotencyKey, String requestHash, long contentLength) {
    }

    /**
     * What a request was answered: the status, the Retry-After headers and the wait they asked for, the commit
     * state (null for reads), and how long the server held the answer (0 when not).
     */
    public record Answer(int status, String retryAfter, String retryAfterMs, Long askedMs, String commitState,
            long stalledMs) {
    }

    /** One line for people: how the client ended, what it did, and the verdict with its reason. */
    public String describe() {
        StringBuilder b = new StringBuilder();
        if (client.command().isEmpty()) {
            b.append("served for ").append(client.timeoutSeconds()).append(" s: ");
        } else if (client.timedOut()) {
            b.append("the client was killed at the ").append(client.timeoutSeconds()).append(" s timeout: ");
        } else {
            b.append("the client exited with code ").append(client.exitCode()).append(": ");
        }
        String method = scenario.method();
        b.append(counts.attempts()).append(' ').append(method).append(counts.attempts() == 1 ? "" : "s");
        if (counts.otherRequests() > 0) {
            b.append(" and ").append(counts.otherRequests()).append(counts.otherRequests() == 1 ? " request" : " requests")
                    .append(" of other methods");
        }
        if (counts.unrecorded() > 0) {
            b.append(", ").append(counts.unrecorded()).append(" more past the journal's capacity (not recorded)");
        }
        if (counts.unfinished() > 0) {
            b.append(", ").append(counts.unfinished()).append(counts.unfinished() == 1 ? " request" : " requests")
                    .append(" that never arrived whole (not attempts)");
        }
        b.append(counts.reachedSuccess() ? ", reached success" : ", did not reach success");
        b.append("; ").append(verdict.replace('_', ' ')).append(": ").append(reason);
        return b.toString();
    }
}

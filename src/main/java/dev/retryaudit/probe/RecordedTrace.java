package dev.retryaudit.probe;

import java.util.List;
import java.util.Objects;

/**
 * What one probe run recorded: its id, when the server started, the scenario it served, the client
 * command (null when it only served), the requests of the scenario's method in arrival order, the
 * requests of other methods, how many requests went unrecorded past the journal's capacity, and how
 * many never arrived whole (cut off, timed out or not HTTP/1.x: no attempt, and never journalled).
 */
public record RecordedTrace(String runId, long createdMillis, Scenario scenario, String client,
        List<RecordedRequest> attempts, List<RecordedRequest> otherRequests, long unrecorded, long unfinished) {
    public RecordedTrace {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(scenario, "scenario");
        attempts = List.copyOf(attempts);
        otherRequests = List.copyOf(otherRequests);
    }

    /** A trace in which every request arrived whole. */
    public RecordedTrace(String runId, long createdMillis, Scenario scenario, String client,
            List<RecordedRequest> attempts, List<RecordedRequest> otherRequests, long unrecorded) {
        this(runId, createdMillis, scenario, client, attempts, otherRequests, unrecorded, 0);
    }

    /** Whether any request of the scenario's method was answered 200 without being held. */
    public boolean reachedSuccess() {
        return attempts.stream().anyMatch(a -> a.status() == 200 && a.stalledMillis() == 0);
    }

    /**
     * Whether the client stopped waiting for the answer to attempt {@code index}: the server held it,
     * and the next attempt arrived before the answer was sent, or on another connection (a client
     * that read the answer could have sent it on the same one; one that gave up had to close it).
     */
    public boolean gaveUp(int index) {
        RecordedRequest r = attempts.get(index);
        if (r.stalledMillis() == 0 || index + 1 >= attempts.size()) {
            return false;
        }
        RecordedRequest next = attempts.get(index + 1);
        return next.receivedMillis() < r.answeredMillis() || next.connection() != r.connection();
    }

    /** How many different client connections sent the recorded requests. */
    public long connections() {
        return java.util.stream.Stream.concat(attempts.stream(), otherRequests.stream())
                .mapToInt(RecordedRequest::connection).distinct().count();
    }
}

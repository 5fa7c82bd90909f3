package dev.retryaudit.probe;

import java.util.List;
import java.util.Objects;

/**
 * What one probe run recorded: its id, when the server started, the scenario it served, the GETs
 * in arrival order, the requests of other methods, and how many GETs went unrecorded past the cap.
 */
public record RecordedTrace(String runId, long createdMillis, Scenario scenario, List<RecordedRequest> attempts,
        List<RecordedRequest> otherRequests, long unrecorded) {
    public RecordedTrace {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(scenario, "scenario");
        attempts = List.copyOf(attempts);
        otherRequests = List.copyOf(otherRequests);
    }

    /** Whether any GET was answered 200. */
    public boolean reachedSuccess() {
        return attempts.stream().anyMatch(a -> a.status() == 200);
    }
}

package dev.retryaudit.probe.suite;

import java.util.List;
import java.util.Objects;

/**
 * One scenario's line of a scorecard: the scenario's id and title, what the server did, what the
 * client did (its requests, the waits between them, how it ended), the verdict, and what decides it:
 * the rule of the deciding finding (null when the verdict is honoured) and its message, or the
 * verdict's reason.
 */
public record ScorecardRow(String id, String title, String server, String client, String verdict, String rule,
        String finding, Facts facts) {

    /** The client's run in numbers: requests of the method, the waits between them, its exit code (null when killed), whether it was killed. */
    public record Facts(int attempts, List<Long> waitsMs, Integer exitCode, boolean timedOut) {
        public Facts {
            waitsMs = List.copyOf(waitsMs);
        }
    }

    public ScorecardRow {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(finding, "finding");
        Objects.requireNonNull(facts, "facts");
    }
}

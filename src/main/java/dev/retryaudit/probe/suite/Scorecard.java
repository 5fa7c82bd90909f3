package dev.retryaudit.probe.suite;

import dev.retryaudit.report.ProbeFacts;
import java.util.List;
import java.util.Objects;

/**
 * How a client did across a suite: the tool and its version, the suite, the command as given
 * ({@code {url}} not replaced), one row per scenario in the suite's order, and whether rows that tested
 * nothing are allowed ({@code --allow-not-tested}). It passes when no row is violated, something was
 * honoured, and no row is not tested unless that is allowed.
 */
public record Scorecard(String toolName, String toolVersion, String suite, List<String> command, List<ScorecardRow> rows,
        boolean allowNotTested) {

    public Scorecard {
        Objects.requireNonNull(suite, "suite");
        command = List.copyOf(command);
        rows = List.copyOf(rows);
    }

    /** How many rows have {@code verdict}. */
    public long count(String verdict) {
        return rows.stream().filter(r -> r.verdict().equals(verdict)).count();
    }

    /** Whether the client passed: nothing violated, something honoured, and nothing untested unless allowed. */
    public boolean passed() {
        return count(ProbeFacts.VIOLATED) == 0 && count(ProbeFacts.HONOURED) > 0
                && (allowNotTested || count(ProbeFacts.NOT_TESTED) == 0);
    }

    /** Whether a row fails the scorecard: violated, or not tested when that is not allowed. */
    public boolean fails(ScorecardRow row) {
        return row.verdict().equals(ProbeFacts.VIOLATED) || !allowNotTested && row.verdict().equals(ProbeFacts.NOT_TESTED);
    }

    /** The command as one line. */
    public String commandLine() {
        return String.join(" ", command);
    }

    /** The total line: {@code 13 scenarios: 9 honoured, 2 violated, 2 not tested (failing); FAILED}. */
    public String total() {
        long untested = count(ProbeFacts.NOT_TESTED);
        return rows.size() + " scenarios: " + count(ProbeFacts.HONOURED) + " honoured, " + count(ProbeFacts.VIOLATED)
                + " violated, " + untested + " not tested" + (untested == 0 ? "" : allowNotTested ? " (allowed)" : " (failing)")
                + "; " + (passed() ? "PASSED" : "FAILED");
    }
}

package dev.retryaudit.report;

import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Severity;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything a report format prints: the inputs, the findings in their one order, and the verdict
 * against {@code --fail-on}; for {@code probe}, also what the probe observed ({@code probe} is
 * null otherwise). Every writer renders this record and nothing else.
 */
public record Report(String toolName, String toolVersion, List<InputSummary> inputs, List<Finding> findings,
        FailOn failOn, ProbeFacts probe) {

    public Report {
        Objects.requireNonNull(toolVersion, "toolVersion");
        Objects.requireNonNull(failOn, "failOn");
        inputs = List.copyOf(inputs);
        findings = List.copyOf(findings);
    }

    /** A report of an audit, with no probe facts. */
    public Report(String toolName, String toolVersion, List<InputSummary> inputs, List<Finding> findings,
            FailOn failOn) {
        this(toolName, toolVersion, inputs, findings, failOn, null);
    }

    /** This report with what {@code probe} observed (null for none). */
    public Report withProbe(ProbeFacts facts) {
        return new Report(toolName, toolVersion, inputs, findings, failOn, facts);
    }

    public long operations() {
        return inputs.stream().mapToLong(InputSummary::operations).sum();
    }

    public long attempts() {
        return inputs.stream().mapToLong(InputSummary::attempts).sum();
    }

    /** Attempts after the first of each operation. */
    public long retries() {
        return attempts() - operations();
    }

    /** The number of findings of each severity, every severity present. */
    public Map<Severity, Long> counts() {
        Map<Severity, Long> counts = new EnumMap<>(Severity.class);
        for (Severity s : Severity.values()) {
            counts.put(s, 0L);
        }
        findings.forEach(f -> counts.merge(f.severity(), 1L, Long::sum));
        return counts;
    }

    /** Whether no finding is at or above {@code --fail-on}. */
    public boolean passed() {
        return findings.stream().noneMatch(f -> failOn.fails(f.severity()));
    }
}

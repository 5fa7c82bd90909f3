package dev.retryaudit.api;

import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Operation;
import java.io.Serializable;
import java.util.List;

/**
 * What one audit found: the inputs it read (source, format, operations, attempts, the readers' notes) and its
 * findings in the one order every report uses. With a baseline ({@link AuditSettings.Builder#baseline}), the
 * findings are those it does not hold: {@code baseline} names it and {@code suppressed} counts the others
 * (else null and 0). {@code timelines} are the first operations that got findings, as many as
 * {@link AuditSettings.Builder#timelines} asked for, for reports that draw them. Immutable and serializable.
 */
public record AuditResult(List<InputSummary> inputs, List<Finding> findings, String baseline, long suppressed,
        List<Operation> timelines) implements Serializable {
    public AuditResult {
        inputs = List.copyOf(inputs);
        findings = List.copyOf(findings);
        timelines = List.copyOf(timelines);
        if (suppressed < 0 || (baseline == null && suppressed != 0)) {
            throw new IllegalArgumentException("suppressed findings need a baseline: " + suppressed);
        }
    }

    /** A result without a baseline or timelines. */
    public AuditResult(List<InputSummary> inputs, List<Finding> findings) {
        this(inputs, findings, null, 0, List.of());
    }
}

package dev.retryaudit.api;

import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputSummary;
import java.io.Serializable;
import java.util.List;

/**
 * What one audit found: the inputs it read (source, format, operations, attempts) and its findings in
 * the one order every report uses. Immutable and serializable.
 */
public record AuditResult(List<InputSummary> inputs, List<Finding> findings) implements Serializable {
    public AuditResult {
        inputs = List.copyOf(inputs);
        findings = List.copyOf(findings);
    }
}

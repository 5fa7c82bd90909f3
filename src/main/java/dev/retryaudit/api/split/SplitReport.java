package dev.retryaudit.api.split;

import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.model.FailOn;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Severity;
import dev.retryaudit.report.JsonParts;
import dev.retryaudit.rules.engine.FindingOrder;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;

/**
 * The JSON report of findings written where they are made (the JSON Lines of {@code serve}, the rows of a Spark
 * job): each finding as a line, its evidence, its place in the report's order as bytes, and the report's summary
 * around findings written elsewhere.
 */
public final class SplitReport {
    private SplitReport() {
    }

    /** One finding as one line of compact JSON, with the fields (fingerprint included) the JSON report gives it. */
    public static String findingJson(Finding f) {
        return JsonParts.line(f);
    }

    /** The evidence of {@code f} as one line of compact JSON, as the JSON report gives it. */
    public static String evidenceJson(Finding f) {
        return JsonParts.evidence(f);
    }

    /**
     * {@code f}'s place in the report's order of findings (source, line, column, attempt, rule, operation,
     * message) as bytes that compare, unsigned and byte by byte as Spark sorts binary columns, as the findings
     * do: the report's own order, not a copy of it.
     */
    public static byte[] orderKey(Finding f) {
        return FindingOrder.key(f);
    }

    /**
     * The JSON report of findings written elsewhere: its {@code version}, {@code tool}, {@code inputs} (with their
     * notes) and {@code summary} (the {@code counts} of each severity judged by {@code failOn}) as the report
     * writes them, then a {@code findings} object of the string members {@code findingsAt} (where they are).
     */
    public static void writeJsonSummary(OutputStream out, List<InputSummary> inputs, Map<Severity, Long> counts,
            FailOn failOn, Map<String, String> findingsAt) throws IOException {
        JsonParts.writeSummary(out, RetryAudit.NAME, RetryAudit.version(), inputs, counts, failOn, findingsAt);
    }
}

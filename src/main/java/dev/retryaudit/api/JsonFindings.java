package dev.retryaudit.api;

import dev.retryaudit.model.FailOn;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Severity;
import dev.retryaudit.report.JsonParts;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;

/**
 * The JSON report in pieces, for findings written as they are made (JSON Lines of {@code serve}, rows of a
 * Spark job): one finding as the report writes it, its evidence, and the report's header and summary.
 */
public final class JsonFindings {
    private JsonFindings() {
    }

    /** {@code f} as one line of compact JSON, with the fields (fingerprint included) the JSON report gives it. */
    public static String line(Finding f) {
        return JsonParts.line(f);
    }

    /** The evidence of {@code f} as one line of compact JSON. */
    public static String evidence(Finding f) {
        return JsonParts.evidence(f);
    }

    /**
     * The JSON report of findings written elsewhere: its {@code version}, {@code tool}, {@code inputs} (with
     * their notes) and {@code summary} as the report writes them, then a {@code findings} object of the string
     * members {@code findingsAt} (where they are).
     */
    public static void writeSummary(OutputStream out, String toolName, String toolVersion, List<InputSummary> inputs,
            Map<Severity, Long> counts, FailOn failOn, Map<String, String> findingsAt) throws IOException {
        JsonParts.writeSummary(out, toolName, toolVersion, inputs, counts, failOn, findingsAt);
    }
}

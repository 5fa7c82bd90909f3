package dev.retryaudit.report;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.retryaudit.model.FailOn;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Severity;
import dev.retryaudit.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * The JSON report's pieces as {@link JsonReportWriter} writes them, for {@code api.RetryAudit}: one finding
 * as a line of compact JSON, its evidence, and the report's header and summary without its findings.
 */
public final class JsonParts {
    private JsonParts() {
    }

    /** {@code f} as one line of compact JSON, with the fields (fingerprint included) the JSON report gives it. */
    public static String line(Finding f) {
        return compact(g -> JsonReportWriter.writeFinding(g, f));
    }

    /** The evidence of {@code f} as one line of compact JSON. */
    public static String evidence(Finding f) {
        return compact(g -> Json.value(g, f.evidence().asMap()));
    }

    /**
     * The JSON report of findings written elsewhere: its {@code version}, {@code tool}, {@code inputs} (with
     * their notes) and {@code summary} as the report writes them, then a {@code findings} object of the string
     * members {@code findingsAt} (where they are).
     */
    public static void writeSummary(OutputStream out, String toolName, String toolVersion, List<InputSummary> inputs,
            Map<Severity, Long> counts, FailOn failOn, Map<String, String> findingsAt) throws IOException {
        JsonReportWriter.writeSummary(out, toolName, toolVersion, inputs, counts, failOn, findingsAt);
    }

    private interface Writing {
        void write(JsonGenerator g) throws IOException;
    }

    private static String compact(Writing w) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = Json.generator(out)) {
            g.setPrettyPrinter(null);
            w.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}

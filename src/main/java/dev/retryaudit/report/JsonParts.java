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
 * The JSON report's pieces as {@link JsonReportWriter} writes them, for {@code api.RetryAudit} and {@code serve}:
 * one finding as a line of compact JSON (or many, as JSON Lines into a stream), its evidence, and the report's
 * header and summary without its findings.
 */
public final class JsonParts {
    private JsonParts() {
    }

    /** {@code f} as one line of compact JSON, with the fields (fingerprint included) the JSON report gives it. */
    public static String line(Finding f) {
        return compact(g -> JsonReportWriter.writeFinding(g, f));
    }

    /**
     * {@code findings} into {@code out} as JSON Lines, each line as {@link #line} gives it and a line feed, rendered
     * by one generator straight into bytes; {@code out} is neither flushed nor closed.
     */
    public static void lines(OutputStream out, List<Finding> findings) throws IOException {
        try (JsonGenerator g = compactGenerator(out)) {
            for (Finding f : findings) {
                JsonReportWriter.writeFinding(g, f);
                g.writeRaw('\n');
            }
        }
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
        try (JsonGenerator g = compactGenerator(out)) {
            w.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /**
     * The report's generator without its layout: each value on one line, nothing between two values at the top
     * (the caller writes what separates them), {@code out} not flushed when the generator is closed.
     */
    private static JsonGenerator compactGenerator(OutputStream out) throws IOException {
        JsonGenerator g = Json.generator(out);
        g.setPrettyPrinter(null);
        g.setRootValueSeparator(null);
        g.disable(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM);
        return g;
    }
}

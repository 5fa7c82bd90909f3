package dev.retryaudit.report;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.retryaudit.json.Json;
import dev.retryaudit.rules.RuleInfo;
import dev.retryaudit.rules.engine.ListedFamily;
import dev.retryaudit.rules.engine.RuleRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Renders rule metadata for {@code rules} and {@code explain FAMILY}: an aligned text table or a JSON array.
 * The probe's verdicts ({@link ListedFamily}) are marked as such: only {@code retry-audit probe} reports them.
 */
public final class RuleList {
    private static final String[] HEADINGS = {"ID", "FAMILY", "SEVERITY", "SUMMARY"};
    /** What the text table puts before the summary of a rule only a probe run reports. */
    public static final String PROBE_ONLY = "(probe only) ";

    private RuleList() {
    }

    /** Which command reports the rule's findings: {@code audit} (and {@code probe}, which audits), or {@code probe} only. */
    public static String runs(RuleInfo r) {
        ListedFamily listed = RuleRegistry.listedFamily(r.id());
        return listed == null ? "audit" : listed.family();
    }

    /** One row per rule under a heading row; columns padded to the widest cell, no trailing spaces. */
    public static String text(List<RuleInfo> rules) {
        int[] width = new int[HEADINGS.length - 1];
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADINGS);
        for (RuleInfo r : rules) {
            rows.add(new String[] {r.id(), r.family(), r.severity().id(),
                    (runs(r).equals("probe") ? PROBE_ONLY : "") + r.summary()});
        }
        for (String[] row : rows) {
            for (int i = 0; i < width.length; i++) {
                width[i] = Math.max(width[i], row[i].length());
            }
        }
        StringBuilder b = new StringBuilder();
        for (String[] row : rows) {
            for (int i = 0; i < width.length; i++) {
                b.append(row[i]).append(" ".repeat(width[i] - row[i].length() + 2));
            }
            b.append(row[width.length]).append('\n');
        }
        return b.toString();
    }

    /** Writes the text table as UTF-8. */
    public static void writeText(List<RuleInfo> rules, OutputStream out) throws IOException {
        out.write(text(rules).getBytes(StandardCharsets.UTF_8));
    }

    /** A JSON array of {@code {"id", "family", "severity", "summary", "runs"}} objects, in the order given. */
    public static void writeJson(List<RuleInfo> rules, OutputStream out) throws IOException {
        try (JsonGenerator g = Json.generator(out)) {
            g.writeStartArray();
            for (RuleInfo r : rules) {
                g.writeStartObject();
                g.writeStringField("id", r.id());
                g.writeStringField("family", r.family());
                g.writeStringField("severity", r.severity().id());
                g.writeStringField("summary", r.summary());
                g.writeStringField("runs", runs(r));
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        out.write('\n');
    }
}

package dev.retryaudit.report;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.retryaudit.rules.RuleInfo;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Renders rule metadata for {@code rules} and {@code explain FAMILY}: an aligned text table or a JSON array. */
public final class RuleList {
    private static final String[] HEADINGS = {"ID", "FAMILY", "SEVERITY", "SUMMARY"};

    private RuleList() {
    }

    /** One row per rule under a heading row; columns padded to the widest cell, no trailing spaces. */
    public static String text(List<RuleInfo> rules) {
        int[] width = new int[HEADINGS.length - 1];
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADINGS);
        for (RuleInfo r : rules) {
            rows.add(new String[] {r.id(), r.family(), r.severity().id(), r.summary()});
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

    /** A JSON array of {@code {"id", "family", "severity", "summary"}} objects, in the order given. */
    public static void writeJson(List<RuleInfo> rules, OutputStream out) throws IOException {
        try (JsonGenerator g = Json.generator(out)) {
            g.writeStartArray();
            for (RuleInfo r : rules) {
                g.writeStartObject();
                g.writeStringField("id", r.id());
                g.writeStringField("family", r.family());
                g.writeStringField("severity", r.severity().id());
                g.writeStringField("summary", r.summary());
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        out.write('\n');
    }
}

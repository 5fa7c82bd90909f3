package dev.retryaudit.model;

import dev.retryaudit.text.Wire;
import java.util.List;

/** The report formats {@code --format} names: JSON, text, SARIF, GitHub annotations, HTML and Markdown. */
public enum ReportFormat {
    JSON,
    TEXT,
    SARIF,
    GITHUB,
    HTML,
    MARKDOWN;

    public String id() {
        return Wire.name(this, '-');
    }

    public static ReportFormat parse(String id) {
        return Wire.parse(ReportFormat.class, id, '-');
    }

    public static List<String> ids() {
        return Wire.names(ReportFormat.class, '-');
    }
}

package dev.retryaudit.report;

import dev.retryaudit.text.Wire;
import java.util.List;

/** The report formats {@code --format} names, each with its writer. */
public enum ReportFormat {
    JSON,
    TEXT,
    SARIF,
    GITHUB,
    HTML;

    public String id() {
        return Wire.name(this, '-');
    }

    public static ReportFormat parse(String id) {
        return Wire.parse(ReportFormat.class, id, '-');
    }

    public static List<String> ids() {
        return Wire.names(ReportFormat.class, '-');
    }

    /** A writer for this format; {@code color} only matters where the format has colour. */
    public ReportWriter writer(boolean color) {
        return switch (this) {
            case JSON -> new JsonReportWriter();
            case TEXT -> new TextReportWriter(color);
            case SARIF -> new SarifReportWriter();
            case GITHUB -> new GithubReportWriter();
            case HTML -> new HtmlReportWriter();
        };
    }
}

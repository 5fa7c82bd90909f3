package dev.retryaudit.report;

import dev.retryaudit.model.ReportFormat;
import java.io.IOException;
import java.io.OutputStream;

/** Renders a {@link Report} in one format. Writers add nothing the report does not hold, so every format agrees. */
public interface ReportWriter {
    /** A writer of {@code format}; {@code color} only matters where the format has colour. */
    static ReportWriter of(ReportFormat format, boolean color) {
        return switch (format) {
            case JSON -> new JsonReportWriter();
            case TEXT -> new TextReportWriter(color);
            case SARIF -> new SarifReportWriter();
            case GITHUB -> new GithubReportWriter();
            case HTML -> new HtmlReportWriter();
            case MARKDOWN -> new MarkdownReportWriter();
        };
    }

    void write(Report report, OutputStream out) throws IOException;

    /** Renders an input that could not be audited (exit 65 or 66); the diagnostic on stderr is the caller's. */
    void writeError(InputFailure failure, OutputStream out) throws IOException;

    /**
     * How many operations with findings this format draws with their attempts ({@link Report#timelines()}):
     * the audit keeps at most that many, and none for a format that draws none.
     */
    default int timelines() {
        return 0;
    }
}

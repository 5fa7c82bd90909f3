package dev.retryaudit.report;

import java.io.IOException;
import java.io.OutputStream;

/** Renders a {@link Report} in one format. Writers add nothing the report does not hold, so every format agrees. */
public interface ReportWriter {
    void write(Report report, OutputStream out) throws IOException;
}

package dev.retryaudit.report;

import java.io.IOException;
import java.io.OutputStream;

/** Renders a {@link Report} in one format. Writers add nothing the report does not hold, so every format agrees. */
public interface ReportWriter {
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

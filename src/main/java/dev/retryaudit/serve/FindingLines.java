package dev.retryaudit.serve;

import dev.retryaudit.report.JsonParts;
import dev.retryaudit.model.Finding;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.function.Consumer;

/**
 * Findings as JSON Lines as they are made: the JSON report's fields of a finding, fingerprint included,
 * the lines of each audited part rendered straight into the output and flushed together. The first write
 * that fails is kept ({@link #failure}), the run is told at once ({@link #onFailure}), and later findings
 * are dropped, for the command to end with exit 74. Thread-safe.
 */
public final class FindingLines implements Consumer<List<Finding>> {
    private final OutputStream out;
    private IOException failure;
    private Runnable onFailure = () -> { };

    public FindingLines(OutputStream out) {
        this.out = out;
    }

    /** Findings written nowhere: none is rendered (the report at the end of the run holds them). */
    public static FindingLines none() {
        return new FindingLines(null);
    }

    /** Writes the lines of {@code findings}, one audited part's, and flushes them once. */
    @Override
    public synchronized void accept(List<Finding> findings) {
        if (failure != null || out == null || findings.isEmpty()) {
            return;
        }
        try {
            JsonParts.lines(out, findings);
            out.flush();
        } catch (IOException e) {
            failure = e;
            onFailure.run();
        }
    }

    /** What to do the moment a write fails (end the run); runs at once if one already has. */
    public synchronized void onFailure(Runnable action) {
        onFailure = action;
        if (failure != null) {
            action.run();
        }
    }

    /** The write that failed, or null. */
    public synchronized IOException failure() {
        return failure;
    }
}

package dev.retryaudit.report;

import dev.retryaudit.model.InputNote;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Severity;
import dev.retryaudit.text.Escaping;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/** The one-line verdict that the text and github formats end with, the probe's line before it, and the input notes. */
public final class Summaries {
    private Summaries() {
    }

    /** Every input's notes, input by input in the order the inputs were read. */
    static List<InputNote> notes(Report r) {
        List<InputNote> notes = new ArrayList<>();
        for (InputSummary in : r.inputs()) {
            notes.addAll(in.notes());
        }
        return notes;
    }

    /**
     * {@code 2 operations, 4 attempts, 2 retries; 1 error, 0 warnings, 0 notes; failed (--fail-on error)},
     * with the baseline's suppressed count when there is one. {@code verdict} styles the last part.
     */
    public static String line(Report r, UnaryOperator<String> verdict) {
        StringBuilder b = new StringBuilder(r.toolName()).append(": ");
        b.append(count(r.operations(), "operation", "operations")).append(", ")
                .append(count(r.attempts(), "attempt", "attempts")).append(", ")
                .append(count(r.retries(), "retry", "retries")).append("; ");
        List<String> parts = new ArrayList<>();
        for (Map.Entry<Severity, Long> e : r.counts().entrySet()) {
            parts.add(count(e.getValue(), e.getKey().id(), e.getKey().id() + "s"));
        }
        b.append(String.join(", ", parts));
        if (r.baseline() != null) {
            b.append("; ").append(count(r.suppressed(), "finding", "findings")).append(" suppressed by the baseline ")
                    .append(Escaping.controls(r.baseline()));
        }
        b.append("; ").append(verdict.apply(r.passed() ? "passed" : "failed"))
                .append(" (--fail-on ").append(r.failOn().id()).append(')');
        return b.toString();
    }

    /** {@code retry-audit: probe: the client exited with code 0: 3 GETs, reached success, ...}, or null without probe facts. */
    static String probeLine(Report r) {
        return r.probe() == null ? null : r.toolName() + ": probe: " + r.probe().describe();
    }

    static String count(long n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    /** Whether findings of this report point into a file: not for a probe whose trace was not written (--trace-out). */
    static boolean inFile(Report r) {
        return r.probe() == null || r.probe().traceFile() != null;
    }
}

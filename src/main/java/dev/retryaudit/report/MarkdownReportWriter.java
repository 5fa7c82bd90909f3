package dev.retryaudit.report;

import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputNote;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Severity;
import dev.retryaudit.model.internal.InputError;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * GitHub-flavoured Markdown for a job summary or a pull request comment: a summary table (operations,
 * attempts, retries, findings by severity, the verdict), the findings grouped by rule (operation,
 * attempt, message, location), then the input notes. The whole stays within {@link #MAX_BYTES}, under
 * the 1 MiB GitHub accepts for one step's summary: past that the findings and notes left are cut and
 * counted. Every string from the input is escaped ({@link MarkdownText}), so none can break a table,
 * start a heading, a link, a mention or an HTML element.
 */
final class MarkdownReportWriter implements ReportWriter {
    /** The most bytes a report takes: GitHub refuses a step summary over 1 MiB (1,048,576 bytes). */
    static final int MAX_BYTES = 1_000_000;
    /** Bytes kept for what follows the cut: the lines that count what was cut, and the last line. */
    private static final int TAIL_BYTES = 2_000;

    @Override
    public void write(Report r, OutputStream out) throws IOException {
        Budget b = new Budget(out, MAX_BYTES - TAIL_BYTES);
        b.always("## " + r.toolName() + ": " + (r.passed() ? "passed" : "failed") + "\n\n");
        b.always("| operations | attempts | retries | errors | warnings | notes | verdict |\n");
        b.always("|---:|---:|---:|---:|---:|---:|---|\n");
        Map<Severity, Long> counts = r.counts();
        b.always("| " + r.operations() + " | " + r.attempts() + " | " + r.retries() + " | "
                + counts.get(Severity.ERROR) + " | " + counts.get(Severity.WARNING) + " | " + counts.get(Severity.NOTE)
                + " | **" + (r.passed() ? "passed" : "failed") + "** (`--fail-on " + r.failOn().id() + "`) |\n\n");
        if (r.baseline() != null) {
            b.always(Summaries.count(r.suppressed(), "finding", "findings") + " suppressed by the baseline "
                    + MarkdownText.escape(r.baseline()) + ".\n\n");
        }
        if (r.probe() != null) {
            b.always("Probe: " + MarkdownText.escape(r.probe().describe()) + "\n\n");
        }
        long cutFindings = findings(r, b);
        long cutNotes = notes(r, b);
        if (cutFindings + cutNotes > 0) {
            b.always("> **Cut:** " + cuts(cutFindings, cutNotes) + " are left out here to keep this summary under "
                    + "GitHub's 1 MiB limit for a step summary; the JSON, SARIF and text reports list them all.\n\n");
        }
        b.always("<sub>" + MarkdownText.escape(r.toolName() + " " + r.toolVersion()) + "</sub>\n");
        b.flush();
    }

    /** The findings grouped by rule, most findings first; returns how many did not fit. */
    private static long findings(Report r, Budget b) throws IOException {
        if (r.findings().isEmpty()) {
            b.always("No findings.\n\n");
            return 0;
        }
        Map<String, List<Finding>> byRule = new LinkedHashMap<>();
        for (Finding f : r.findings()) {
            byRule.computeIfAbsent(f.rule(), k -> new ArrayList<>()).add(f);
        }
        List<Map.Entry<String, List<Finding>>> rules = new ArrayList<>(byRule.entrySet());
        rules.sort((x, y) -> x.getValue().size() != y.getValue().size()
                ? Integer.compare(y.getValue().size(), x.getValue().size()) : x.getKey().compareTo(y.getKey()));
        boolean inFile = Summaries.inFile(r);
        long cut = 0;
        b.fits("### Findings by rule\n\n");
        for (Map.Entry<String, List<Finding>> rule : rules) {
            List<Finding> fs = rule.getValue();
            if (cut > 0 || !b.fits("#### " + MarkdownText.escape(rule.getKey()) + " ("
                    + Summaries.count(fs.size(), "finding", "findings") + ")\n\n"
                    + "| severity | operation | attempt | message | location |\n|---|---|---|---|---|\n")) {
                cut += fs.size();
                continue;
            }
            for (int i = 0; i < fs.size(); i++) {
                if (!b.fits(row(fs.get(i), inFile))) {
                    cut += fs.size() - i;
                    break;
                }
            }
            b.fits("\n");
        }
        return cut;
    }

    private static String row(Finding f, boolean inFile) {
        Location l = f.location();
        String at = inFile ? l.source() + ":" + l.line() + ":" + l.column() : "probe";
        return "| " + f.severity().id() + " | " + (f.operation() == null ? "" : MarkdownText.escape(f.operation()))
                + " | " + (f.attempt() == null ? "" : f.attempt()) + " | " + MarkdownText.escape(f.message()) + " | "
                + MarkdownText.escape(at) + " |\n";
    }

    /** The input notes; returns how many did not fit. */
    private static long notes(Report r, Budget b) throws IOException {
        List<InputNote> notes = Summaries.notes(r);
        if (notes.isEmpty()) {
            return 0;
        }
        if (!b.fits("### Input notes\n\n| input | note |\n|---|---|\n")) {
            return notes.size();
        }
        for (int i = 0; i < notes.size(); i++) {
            InputNote n = notes.get(i);
            String at = n.source() + (n.line() > 0 ? ":" + n.line() + ":" + n.column() : "");
            if (!b.fits("| " + MarkdownText.escape(at) + " | " + MarkdownText.escape(n.message()) + " |\n")) {
                return notes.size() - i;
            }
        }
        b.fits("\n");
        return 0;
    }

    private static String cuts(long findings, long notes) {
        List<String> parts = new ArrayList<>();
        if (findings > 0) {
            parts.add(Summaries.count(findings, "finding", "findings"));
        }
        if (notes > 0) {
            parts.add(Summaries.count(notes, "input note", "input notes"));
        }
        return String.join(" and ", parts);
    }

    /** The input that could not be audited and why, in place of a report. */
    @Override
    public void writeError(InputFailure failure, OutputStream out) throws IOException {
        InputError e = failure.error();
        String title = e.unreadable() ? "input unreadable" : "input rejected";
        String at = e.source() + (e.line() > 0 ? ":" + e.line() + ":" + e.column() : "");
        Budget b = new Budget(out, MAX_BYTES);
        b.always("## " + failure.toolName() + ": " + title + " (exit " + failure.exitCode() + ")\n\n"
                + MarkdownText.escape(at) + ": " + MarkdownText.escape(e.message()) + "\n\nNo audit ran.\n");
        b.flush();
    }

    /** The bytes written so far against the most the body may take. */
    private static final class Budget {
        private final Utf8Writer w;
        private final long max;
        private long used;

        Budget(OutputStream out, long max) {
            this.w = new Utf8Writer(out);
            this.max = max;
        }

        /** Writes {@code s} whatever it takes: the summary, the lines of the cut, the last line. */
        void always(String s) throws IOException {
            used += s.getBytes(StandardCharsets.UTF_8).length;
            w.write(s);
        }

        /** Writes {@code s} if it fits within the budget; says whether it did. */
        boolean fits(String s) throws IOException {
            int n = s.getBytes(StandardCharsets.UTF_8).length;
            if (used + n > max) {
                return false;
            }
            used += n;
            w.write(s);
            return true;
        }

        void flush() throws IOException {
            w.flush();
        }
    }
}

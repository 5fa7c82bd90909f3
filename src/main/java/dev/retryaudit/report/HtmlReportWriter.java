package dev.retryaudit.report;

import dev.retryaudit.model.Finding;
import dev.retryaudit.model.internal.InputError;
import dev.retryaudit.model.InputNote;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Severity;
import dev.retryaudit.report.html.Html;
import dev.retryaudit.report.html.Timeline;
import dev.retryaudit.rules.RuleInfo;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import static dev.retryaudit.report.html.Html.escape;

/**
 * The report for eyes: one self-contained HTML page (inline style sheet and SVG, no script, no network, a
 * Content-Security-Policy that allows only its own style sheet) with the summary and input notes, the
 * findings grouped by rule and by operation, and a timeline of the attempts of each operation with findings, up to
 * {@link #MAX_TIMELINES} of them. Every string from the input is escaped.
 */
final class HtmlReportWriter implements ReportWriter {
    /** The most operations the page draws a timeline for; the rest are listed and counted. */
    public static final int MAX_TIMELINES = 50;

    @Override
    public int timelines() {
        return MAX_TIMELINES;
    }

    @Override
    public void write(Report r, OutputStream out) throws IOException {
        Writer w = new Utf8Writer(out);
        head(w, r.toolName() + " report: " + (r.passed() ? "passed" : "failed"));
        w.write("<header><h1>" + escape(r.toolName()) + " report</h1>\n<p><span class=\"verdict "
                + (r.passed() ? "passed\">passed" : "failed\">failed") + "</span> <span class=\"line\">"
                + escape(Summaries.line(r, v -> v)) + "</span></p>\n");
        if (r.probe() != null) {
            w.write("<p class=\"line\">" + escape(Summaries.probeLine(r)) + "</p>\n");
        }
        w.write("</header>\n");
        summary(w, r);
        byRule(w, r, out);
        byOperation(w, r, out);
        w.write("<footer>" + escape(r.toolName() + " " + r.toolVersion())
                + ": a self-contained page, no script, nothing loaded from the network.</footer>\n</body>\n</html>\n");
        w.flush();
    }

    /** A page that says why there is no report: the diagnostic that stderr also gets, and the exit code. */
    @Override
    public void writeError(InputFailure failure, OutputStream out) throws IOException {
        Writer w = new Utf8Writer(out);
        InputError e = failure.error();
        head(w, failure.toolName() + " report: input rejected");
        w.write("<header><h1>" + escape(failure.toolName()) + " report</h1>\n<p><span class=\"verdict failed\">"
                + (e.unreadable() ? "input unreadable" : "input rejected")
                + "</span> exit code " + failure.exitCode() + "</p></header>\n");
        w.write("<h2>Error</h2>\n<p class=\"msg mono\">" + escape(e.diagnostic()) + "</p>\n");
        w.write("<footer>" + escape(failure.toolName() + " " + failure.toolVersion())
                + ": no findings were made, the input could not be audited.</footer>\n</body>\n</html>\n");
        w.flush();
    }

    private static void head(Writer w, String title) throws IOException {
        w.write("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                + "<meta http-equiv=\"Content-Security-Policy\" content=\"" + escape(Html.POLICY) + "\">\n"
                + "<meta name=\"referrer\" content=\"no-referrer\">\n"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                + "<title>" + escape(title) + "</title>\n<style>" + Html.STYLE + "</style>\n</head>\n<body>\n");
    }

    private static void summary(Writer w, Report r) throws IOException {
        w.write("<section id=\"summary\">\n<h2>Summary</h2>\n<table>\n<tr><th>input</th><th>format</th>"
                + "<th>operations</th><th>attempts</th></tr>\n");
        for (InputSummary in : r.inputs()) {
            w.write("<tr><td class=\"mono\">" + escape(in.source()) + "</td><td>" + escape(in.format())
                    + "</td><td class=\"n\">" + in.operations() + "</td><td class=\"n\">" + in.attempts() + "</td></tr>\n");
        }
        w.write("</table>\n<table>\n<tr><th>severity</th><th>findings</th></tr>\n");
        for (Map.Entry<Severity, Long> e : r.counts().entrySet()) {
            w.write("<tr><td><span class=\"sev " + e.getKey().id() + "\">" + e.getKey().id() + "</span></td>"
                    + "<td class=\"n\">" + e.getValue() + "</td></tr>\n");
        }
        w.write("</table>\n");
        if (r.baseline() != null) {
            w.write("<p>" + Summaries.count(r.suppressed(), "finding", "findings") + " suppressed by the baseline <code>"
                    + escape(r.baseline()) + "</code>.</p>\n");
        }
        List<InputNote> notes = Summaries.notes(r);
        if (!notes.isEmpty()) {
            w.write("<h3>Input notes</h3>\n<ul>\n");
            for (InputNote n : notes) {
                String at = n.line() > 0 ? ":" + n.line() + ":" + n.column() : "";
                w.write("<li><span class=\"mono\">" + escape(n.source() + at) + "</span> " + escape(n.message())
                        + "</li>\n");
            }
            w.write("</ul>\n");
        }
        w.write("</section>\n");
    }

    private static void byRule(Writer w, Report r, OutputStream out) throws IOException {
        w.write("<section id=\"by-rule\">\n<h2>Findings by rule</h2>\n");
        if (r.findings().isEmpty()) {
            w.write("<p>No findings.</p>\n");
        }
        Map<String, List<Finding>> groups = group(r.findings(), Finding::rule);
        for (RuleInfo rule : r.rules()) {
            List<Finding> fs = groups.get(rule.id());
            if (fs == null) {
                continue;
            }
            w.write("<details open>\n<summary><code>" + escape(rule.id()) + "</code> <span class=\"sev "
                    + rule.severity().id() + "\">" + rule.severity().id() + "</span> <span class=\"count\">"
                    + Summaries.count(fs.size(), "finding", "findings") + "</span> <span class=\"what\">"
                    + escape(rule.summary()) + "</span></summary>\n<ol class=\"findings\">\n");
            w.flush();
            Chunks.write(fs, (chunk, first, o) -> {
                Writer c = new Utf8Writer(o);
                for (Finding f : chunk) {
                    c.write("<li>" + severity(f) + " " + where(f) + subject(f) + "<div class=\"msg\">"
                            + escape(f.message()) + "</div></li>\n");
                }
                c.flush();
            }, out);
            w.write("</ol>\n</details>\n");
        }
        w.write("</section>\n");
    }

    private static void byOperation(Writer w, Report r, OutputStream out) throws IOException {
        w.write("<section id=\"by-operation\">\n<h2>Findings by operation</h2>\n");
        Map<String, List<Finding>> groups = group(r.findings(), f -> f.operation() == null ? null : f.operation());
        Map<String, Operation> drawn = new LinkedHashMap<>();
        r.timelines().stream().limit(MAX_TIMELINES).forEach(op -> drawn.put(op.id(), op));
        if (!drawn.isEmpty()) {
            w.write("<p class=\"legend\">" + key("o-success", "success") + key("o-error", "error")
                    + key("o-timeout", "timeout") + key("o-connection-error", "connection error")
                    + key("o-cancelled", "cancelled") + key("ra", "Retry-After window")
                    + "<span>outlined: <b>early</b> retry, <b>overlap</b>ping write</span>"
                    + "<span>right: commit state \u00b7 source, <span class=\"marker\">1</span>finding</span></p>\n");
        }
        List<Map.Entry<String, List<Finding>>> operations = groups.entrySet().stream()
                .filter(e -> e.getKey() != null).toList();
        long undrawn = operations.stream().filter(e -> !drawn.containsKey(e.getKey())).count();
        w.flush();
        Chunks.write(operations, (chunk, first, o) -> {
            Writer c = new Utf8Writer(o);
            for (int i = 0; i < chunk.size(); i++) {
                operation(c, first + i + 1, chunk.get(i).getKey(), chunk.get(i).getValue(), drawn.get(chunk.get(i).getKey()));
            }
            c.flush();
        }, out);
        if (undrawn > 0) {
            w.write("<p class=\"aside\">" + Summaries.count(undrawn, "operation", "operations")
                    + " with findings listed without a timeline: timelines are drawn for at most " + MAX_TIMELINES
                    + " operations, the first ones a rule of a single operation flagged.</p>\n");
        }
        List<Finding> whole = groups.get(null);
        if (whole != null) {
            w.write("<details open id=\"runs\">\n<summary>Findings about whole runs <span class=\"count\">"
                    + Summaries.count(whole.size(), "finding", "findings") + "</span></summary>\n");
            operationFindings(w, whole);
            w.write("</details>\n");
        }
        if (groups.isEmpty()) {
            w.write("<p>No findings.</p>\n");
        }
        w.write("</section>\n");
    }

    /** The {@code index}th operation with findings: its timeline when {@code op} is drawn, and its findings. */
    private static void operation(Writer w, int index, String id, List<Finding> fs, Operation op) throws IOException {
        Finding first = fs.get(0);
        w.write("<details open id=\"op-" + index + "\">\n<summary><code>" + escape(id) + "</code>"
                + (first.tool() == null ? "" : " <span class=\"what\">tool</span> <code>" + escape(first.tool()) + "</code>")
                + (first.run() == null ? "" : " <span class=\"what\">run</span> <code>" + escape(first.run()) + "</code>")
                + " <span class=\"count\">" + Summaries.count(fs.size(), "finding", "findings")
                + "</span></summary>\n<div class=\"op\">\n");
        String svg = op == null ? null : Timeline.svg(op, fs);
        if (svg != null) {
            w.write(svg + "\n");
        } else if (op != null) {
            w.write("<p class=\"aside\">No attempt has a start time: there is no timeline to draw.</p>\n");
        }
        operationFindings(w, fs);
        w.write("</div>\n</details>\n");
    }

    /** The findings of one group, numbered as the timeline's markers are. */
    private static void operationFindings(Writer w, List<Finding> fs) throws IOException {
        w.write("<ul class=\"findings\">\n");
        for (int k = 0; k < fs.size(); k++) {
            Finding f = fs.get(k);
            w.write("<li><span class=\"marker\">" + (k + 1) + "</span>" + severity(f) + " <code>" + escape(f.rule())
                    + "</code> " + (f.attempt() == null ? (f.operation() == null && f.run() != null
                            ? "run <code>" + escape(f.run()) + "</code>" : "") : "attempt " + f.attempt())
                    + " " + where(f) + "<div class=\"msg\">" + escape(f.message()) + "</div></li>\n");
        }
        w.write("</ul>\n");
    }

    private static String severity(Finding f) {
        return "<span class=\"sev " + f.severity().id() + "\">" + f.severity().id() + "</span>";
    }

    private static String where(Finding f) {
        Location l = f.location();
        return "<span class=\"where mono\">" + escape(l.source() + ":" + l.line() + ":" + l.column()) + "</span>";
    }

    /** {@code operation X attempt N} for the by-rule list. */
    private static String subject(Finding f) {
        StringBuilder s = new StringBuilder();
        if (f.operation() != null) {
            s.append(" operation <code>").append(escape(f.operation())).append("</code>");
        } else if (f.run() != null) {
            s.append(" run <code>").append(escape(f.run())).append("</code>");
        }
        if (f.attempt() != null) {
            s.append(" attempt ").append(f.attempt());
        }
        return s.toString();
    }

    private static String key(String cls, String label) {
        return "<span><span class=\"key " + cls + "\"></span>" + label + "</span>";
    }

    /** The findings by {@code key}, keys in order of their first finding, findings in report order. */
    private static Map<String, List<Finding>> group(List<Finding> findings, Function<Finding, String> key) {
        Map<String, List<Finding>> groups = new LinkedHashMap<>();
        for (Finding f : findings) {
            groups.computeIfAbsent(key.apply(f), k -> new ArrayList<>()).add(f);
        }
        return groups;
    }
}

package dev.retryaudit.report;

import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputNote;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Severity;
import dev.retryaudit.text.Escaping;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The report for people at a terminal: {@code FILE:LINE:COL: SEVERITY: MESSAGE [RULE]} per finding, a
 * line {@code FILE:LINE:COL: input note: MESSAGE} per input note ({@code FILE:} for one about the whole
 * source), a count per rule, then the verdict. Every string from the input is printed with its
 * control characters escaped; ANSI colour only when asked for.
 */
final class TextReportWriter implements ReportWriter {
    private static final String RESET = "\u001b[0m";
    private static final String BOLD = "1";
    private static final String DIM = "2";

    private final boolean color;

    TextReportWriter(boolean color) {
        this.color = color;
    }

    @Override
    public void write(Report r, OutputStream out) throws IOException {
        boolean inFile = Summaries.inFile(r);
        Chunks.write(r.findings(), (chunk, first, o) -> {
            Utf8Writer c = new Utf8Writer(o);
            for (Finding f : chunk) {
                writeFinding(c, f, inFile);
            }
            c.flush();
        }, out);
        Writer w = new Utf8Writer(out);
        for (InputNote n : Summaries.notes(r)) {
            String at = n.line() > 0 ? ":" + n.line() + ":" + n.column() + ":" : ":";
            w.write(paint(BOLD, Escaping.controls(n.source()) + at) + " "
                    + paint(DIM, "input note:") + " " + Escaping.controls(n.message()) + "\n");
        }
        if (r.findings().isEmpty()) {
            w.write("no findings\n");
        } else {
            w.write("\nfindings by rule:\n");
            for (Map.Entry<String, Long> e : perRule(r)) {
                w.write(String.format("%7d  %s", e.getValue(), Escaping.controls(e.getKey())) + "\n");
            }
            w.write("\n");
        }
        if (r.probe() != null) {
            w.write(Summaries.probeLine(r) + "\n");
        }
        w.write(Summaries.line(r, v -> paint(r.passed() ? "1;32" : "1;31", v)) + "\n");
        w.flush();
    }

    /**
     * One finding's line, written piece by piece into {@code c}: the bytes of the line built as one
     * string, without building it (a report may hold hundreds of thousands of findings).
     */
    void writeFinding(Utf8Writer c, Finding f, boolean inFile) throws IOException {
        open(c, BOLD);
        if (inFile) {
            Location l = f.location();
            c.write(Escaping.controls(l.source()));
            c.write(':');
            c.decimal(l.line());
            c.write(':');
            c.decimal(l.column());
            c.write(':');
        } else {
            c.write("probe:");
        }
        close(c);
        c.write(' ');
        open(c, style(f.severity()));
        c.write(f.severity().id());
        c.write(':');
        close(c);
        c.write(' ');
        c.write(Escaping.controls(f.message()));
        c.write(' ');
        open(c, DIM);
        c.write('[');
        c.write(Escaping.controls(f.rule()));
        c.write(']');
        close(c);
        c.write('\n');
    }

    /** The start of {@link #paint}, written. */
    private void open(Writer c, String sgr) throws IOException {
        if (color) {
            c.write("\u001b[");
            c.write(sgr);
            c.write('m');
        }
    }

    /** The end of {@link #paint}, written. */
    private void close(Writer c) throws IOException {
        if (color) {
            c.write(RESET);
        }
    }

    /** Nothing: the report was not made, and the diagnostic on stderr says why (printing it twice helps no one). */
    @Override
    public void writeError(InputFailure failure, OutputStream out) {
    }

    /** The finding count of each rule, most findings first, then by rule id. */
    private static List<Map.Entry<String, Long>> perRule(Report r) {
        List<Map.Entry<String, Long>> rows = new ArrayList<>(r.perRule().entrySet());
        rows.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        return rows;
    }

    /** The SGR code of each severity: errors red, warnings yellow, notes cyan, all bold. */
    static String style(Severity s) {
        return switch (s) {
            case ERROR -> "1;31";
            case WARNING -> "1;33";
            case NOTE -> "1;36";
        };
    }

    private String paint(String sgr, String s) {
        return color ? "\u001b[" + sgr + "m" + s + RESET : s;
    }
}

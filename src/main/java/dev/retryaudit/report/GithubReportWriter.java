package dev.retryaudit.report;

import dev.retryaudit.model.Finding;
import dev.retryaudit.model.internal.InputError;
import dev.retryaudit.model.InputNote;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Severity;
import dev.retryaudit.text.Escaping;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.util.function.UnaryOperator;

/**
 * GitHub Actions workflow commands ({@code ::error file=F,line=L,col=C,title=RULE::MESSAGE}), one per
 * finding, a {@code ::notice} per input note, then the verdict as a plain line. Values are escaped as the Actions toolkit escapes them,
 * after control characters are made visible, so no input string can end a command or start another.
 */
final class GithubReportWriter implements ReportWriter {
    @Override
    public void write(Report r, OutputStream out) throws IOException {
        boolean inFile = Summaries.inFile(r);
        Chunks.write(r.findings(), (chunk, first, o) -> {
            Utf8Writer c = new Utf8Writer(o);
            for (Finding f : chunk) {
                command(c, command(f.severity()), inFile ? f.location().source() : InputSummary.STDIN,
                        f.location().line(), f.location().column(), f.rule(), f.message());
            }
            c.flush();
        }, out);
        Utf8Writer w = new Utf8Writer(out);
        for (InputNote n : Summaries.notes(r)) {
            command(w, "notice", n.source(), n.line(), n.column(), r.toolName() + ": input note", n.message());
        }
        if (r.probe() != null) {
            w.write(Summaries.probeLine(r) + "\n");
        }
        w.write(Summaries.line(r, UnaryOperator.identity()) + "\n");
        w.flush();
    }

    /** An {@code ::error} annotation on the input (or, for stdin, on the run), then the outcome line. */
    @Override
    public void writeError(InputFailure failure, OutputStream out) throws IOException {
        InputError e = failure.error();
        Utf8Writer w = new Utf8Writer(out);
        String title = e.unreadable() ? "input unreadable" : "input rejected";
        command(w, "error", e.source(), e.line(), e.column(), failure.toolName() + ": " + title, e.message());
        w.write(failure.toolName() + ": " + title + " (exit " + failure.exitCode() + "); no audit ran\n");
        w.flush();
    }

    /** The workflow command of each severity. */
    static String command(Severity s) {
        return switch (s) {
            case ERROR -> "error";
            case WARNING -> "warning";
            case NOTE -> "notice";
        };
    }

    /**
     * One command line, written piece by piece into {@code w} (a report may hold hundreds of thousands);
     * {@code line} 0 leaves out line and column, standard input leaves out the file.
     */
    static void command(Utf8Writer w, String name, String source, long line, long column, String title, String message)
            throws IOException {
        w.write("::");
        w.write(name);
        w.write(' ');
        if (!InputSummary.STDIN.equals(source)) {
            w.write("file=");
            escape(w, source, true);
            if (line > 0) {
                w.write(",line=");
                w.decimal(line);
                w.write(",col=");
                w.decimal(column);
            }
            w.write(',');
        }
        w.write("title=");
        escape(w, title, true);
        w.write("::");
        escape(w, message, false);
        w.write('\n');
    }

    /**
     * Writes {@code s} with its control characters made visible, then escaped as the toolkit's
     * {@code escapeData} escapes it ({@code %}, CR, LF) or, for a {@code property}, as its
     * {@code escapeProperty} does (also {@code :} and {@code ,}); no replacement holds a character
     * another one replaces, so one pass gives the bytes of the toolkit's replacements one after another.
     */
    static void escape(Writer w, String s, boolean property) throws IOException {
        String e = Escaping.controls(s);
        int from = 0;
        for (int i = 0; i < e.length(); i++) {
            String with = switch (e.charAt(i)) {
                case '%' -> "%25";
                case '\r' -> "%0D";
                case '\n' -> "%0A";
                case ':' -> property ? "%3A" : null;
                case ',' -> property ? "%2C" : null;
                default -> null;
            };
            if (with != null) {
                w.write(e, from, i - from);
                w.write(with);
                from = i + 1;
            }
        }
        w.write(e, from, e.length() - from);
    }
}

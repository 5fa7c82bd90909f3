package dev.retryaudit.report;

import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputError;
import dev.retryaudit.model.InputNote;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Severity;
import dev.retryaudit.text.Escaping;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
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
            Writer c = new Utf8Writer(o);
            for (Finding f : chunk) {
                c.write(command(command(f.severity()), inFile ? f.location().source() : InputSummary.STDIN,
                        f.location().line(), f.location().column(), f.rule(), f.message()));
            }
            c.flush();
        }, out);
        Writer w = new Utf8Writer(out);
        for (InputNote n : Summaries.notes(r)) {
            w.write(command("notice", n.source(), n.line(), n.column(), r.toolName() + ": input note", n.message()));
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
        Writer w = new Utf8Writer(out);
        String title = e.unreadable() ? "input unreadable" : "input rejected";
        w.write(command("error", e.source(), e.line(), e.column(), failure.toolName() + ": " + title, e.message()));
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

    /** One command line; {@code line} 0 leaves out line and column, standard input leaves out the file. */
    private static String command(String name, String source, long line, long column, String title, String message) {
        List<String> props = new ArrayList<>();
        if (!InputSummary.STDIN.equals(source)) {
            props.add("file=" + property(source));
            if (line > 0) {
                props.add("line=" + line);
                props.add("col=" + column);
            }
        }
        props.add("title=" + property(title));
        return "::" + name + " " + String.join(",", props) + "::" + data(message) + "\n";
    }

    /** The toolkit's {@code escapeData}: {@code %} first, then CR and LF. */
    static String data(String s) {
        return Escaping.controls(s).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A");
    }

    /** The toolkit's {@code escapeProperty}: as data, and also {@code :} and {@code ,}. */
    static String property(String s) {
        return data(s).replace(":", "%3A").replace(",", "%2C");
    }
}

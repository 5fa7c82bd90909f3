package dev.retryaudit.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Location;
import dev.retryaudit.text.Escaping;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The text and GitHub reports' finding lines, written piece by piece into bytes, are the bytes of each
 * line built as one string and encoded by {@link OutputStreamWriter}, as the writers made them before.
 */
class FindingLineBytesTest {
    private static final String[] STRINGS = {"plain", "\u0000\u0001\b\t\n\f\r\u001b\u001f\u007f\u0085", "\u0080 é € \u2028 \u202e \ufeff",
        "😀 pair", "lone \ud800 high", "lone \udc00 low", "ends high \ud83d", "\udc00 starts low", "100% %0A a:b, c",
        HostileStrings.MESSAGE, HostileStrings.SOURCE, HostileStrings.LONG, "é".repeat(20_000), "::error file=x::y\nnext"};
    private static final long[] NUMBERS = {1, 9, 10, 99, 12_345, Integer.MAX_VALUE, 1L + Integer.MAX_VALUE, Long.MAX_VALUE};

    @Test
    void textLinesAreTheBytesOfTheLineAsOneString() throws IOException {
        for (boolean color : new boolean[] {false, true}) {
            for (boolean inFile : new boolean[] {false, true}) {
                TextReportWriter writer = new TextReportWriter(color);
                ByteArrayOutputStream now = new ByteArrayOutputStream();
                Utf8Writer w = new Utf8Writer(now);
                StringBuilder before = new StringBuilder();
                for (Finding f : findings()) {
                    writer.writeFinding(w, f, inFile);
                    before.append(textLine(f, inFile, color));
                }
                w.flush();
                assertThat(now.toByteArray()).isEqualTo(encoded(before.toString()));
            }
        }
    }

    @Test
    void githubCommandsAreTheBytesOfTheCommandAsOneString() throws IOException {
        ByteArrayOutputStream now = new ByteArrayOutputStream();
        Utf8Writer w = new Utf8Writer(now);
        StringBuilder before = new StringBuilder();
        for (Finding f : findings()) {
            for (String source : new String[] {f.location().source(), InputSummary.STDIN}) {
                // Line 0 is an input note or error about the whole source: no line and column.
                for (long line : new long[] {f.location().line(), 0}) {
                    long column = f.location().column();
                    String name = GithubReportWriter.command(f.severity());
                    GithubReportWriter.command(w, name, source, line, column, f.rule(), f.message());
                    before.append(command(name, source, line, column, f.rule(), f.message()));
                }
            }
        }
        w.flush();
        assertThat(now.toByteArray()).isEqualTo(encoded(before.toString()));
    }

    private static List<Finding> findings() {
        List<Finding> findings = new ArrayList<>();
        int n = 0;
        for (String s : STRINGS) {
            for (long number : NUMBERS) {
                var rule = ReportContractTest.RULES.get(n % ReportContractTest.RULES.size());
                findings.add(Finding.builder().rule(rule.id()).severity(rule.severity()).operation("op").attempt(1)
                        .message(s + " " + n).evidence(Evidence.of())
                        .at(new Location(STRINGS[(n + 3) % STRINGS.length], 0, Math.max(1, number), Math.max(1, number - n), null))
                        .build());
                n++;
            }
        }
        return findings;
    }

    private static byte[] encoded(String s) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8)) {
            w.write(s);
        }
        return out.toByteArray();
    }

    /** The text report's line of one finding, as it was built. */
    private static String textLine(Finding f, boolean inFile, boolean color) {
        Location l = f.location();
        String where = inFile ? Escaping.controls(l.source()) + ":" + l.line() + ":" + l.column() + ":" : "probe:";
        return paint(color, "1", where) + " " + paint(color, TextReportWriter.style(f.severity()), f.severity().id() + ":")
                + " " + Escaping.controls(f.message()) + " " + paint(color, "2", "[" + Escaping.controls(f.rule()) + "]") + "\n";
    }

    private static String paint(boolean color, String sgr, String s) {
        return color ? "\u001b[" + sgr + "m" + s + "\u001b[0m" : s;
    }

    /** A workflow command, as it was built. */
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

    private static String data(String s) {
        return Escaping.controls(s).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A");
    }

    private static String property(String s) {
        return data(s).replace(":", "%3A").replace(",", "%2C");
    }
}

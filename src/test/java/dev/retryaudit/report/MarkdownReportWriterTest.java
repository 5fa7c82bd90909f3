package dev.retryaudit.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.FailOn;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputNote;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Severity;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.text.Escaping;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Markdown report: no input string breaks a table or becomes Markdown or HTML, and the whole stays under 1 MiB. */
class MarkdownReportWriterTest {
    /** Markdown and HTML an attacker could put in a trace. */
    static final String MARKUP = "| x | y |\n<script>alert(1)</script> <img src=x onerror=alert(1)> &lt; [link](javascript:alert(1)) "
            + "![img](https://evil.example/p.png) www.evil.example **bold** _em_ `code` ~~s~~ @octocat #1 :smile: https://evil.example "
            + "<!-- comment --> \\| # heading\n> quote\n- item\n```\nfence";

    private static String render(Report r) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new MarkdownReportWriter().write(r, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    private static Finding finding(String operation, String message, Location at) {
        return Finding.builder().rule(ReportContractTest.GAP.id()).severity(Severity.ERROR).operation(operation)
                .attempt(1).tool("t").message(message).evidence(Evidence.of()).at(at).build();
    }

    /** The cells of a table row: split at each pipe no backslash escapes, the escapes undone. */
    private static List<String> cells(String row) {
        List<String> cells = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        for (int i = 1; i < row.length(); i++) {
            char c = row.charAt(i);
            if (c == '\\' && i + 1 < row.length()) {
                cell.append(row.charAt(++i));
            } else if (c == '|') {
                cells.add(cell.toString().strip());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        return cells;
    }

    @Test
    void hostileStringsStayTextInTheirCell() throws IOException {
        String source = "a|b<i>.json";
        List<Finding> findings = List.of(finding("op|" + MARKUP, MARKUP, new Location(source, 0, 3, 4, null)),
                finding("op\u001b", HostileStrings.MESSAGE, new Location(HostileStrings.SOURCE, 1, 1, 1, null)));
        Report r = new Report("retry-audit", "0.1.0",
                List.of(new InputSummary(source, "spans", 1, 1, List.of(new InputNote(source, 2, 1, MARKUP))),
                        new InputSummary(HostileStrings.SOURCE, "spans", 1, 1)),
                findings, FailOn.ERROR, ReportContractTest.RULES, "base|<b>.json", 1);
        String out = render(r);
        assertThat(HostileStrings.hasRawControl(out)).isFalse();
        // Our own markup is the only HTML: every other < is escaped.
        assertThat(out.replace("<sub>", "").replace("</sub>", "").replace("\\<", "")).doesNotContain("<");
        List<String> rows = out.lines().filter(l -> l.startsWith("| error |")).toList();
        assertThat(rows).hasSize(2);
        for (int i = 0; i < rows.size(); i++) {
            Finding f = findings.get(i);
            Location l = f.location();
            assertThat(cells(rows.get(i))).containsExactly("error", Escaping.controls(f.operation()), "1",
                    Escaping.controls(f.message()), Escaping.controls(l.source() + ":" + l.line() + ":" + l.column()));
        }
        String note = out.lines().filter(l -> l.startsWith("| a")).findFirst().orElseThrow();
        assertThat(cells(note)).containsExactly(source + ":2:1", Escaping.controls(MARKUP));
        assertThat(out).contains("\\[link\\]\\(javascript\\:alert\\(1\\)\\)", "https\\://evil.example", "www\\.evil",
                "\\@octocat \\#1 \\:smile\\:");
        assertThat(out).contains("suppressed by the baseline base\\|\\<b\\>.json.");
        // No line of input text starts a heading, a quote, a list or a fence: each begins with our own markup.
        assertThat(out.lines().filter(l -> !l.isEmpty()))
                .allMatch(l -> l.startsWith("|") || l.startsWith("#") || l.startsWith("1 finding") || l.startsWith("<sub>"), "own markup");
    }

    @Test
    void aLongReportIsCutUnderOneMebibyteAndSaysWhatWasCut() throws IOException {
        List<Finding> findings = new ArrayList<>();
        String message = "attempt 2 of the operation retried a write whose commit state is unknown ".repeat(3);
        for (int i = 0; i < 20_000; i++) {
            findings.add(finding("op-" + i, message, new Location("traces/big.jsonl", 0, i + 1, 1, null)));
        }
        List<InputNote> notes = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            notes.add(new InputNote("traces/big.jsonl", i + 1, 1, "a note"));
        }
        Report r = new Report("retry-audit", "0.1.0", List.of(new InputSummary("traces/big.jsonl", "spans", 20_000,
                40_000, notes)), findings, FailOn.ERROR, ReportContractTest.RULES, null, 0);
        String out = render(r);
        assertThat(out.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(MarkdownReportWriter.MAX_BYTES)
                .isGreaterThan(MarkdownReportWriter.MAX_BYTES - 10_000);
        long rows = out.lines().filter(l -> l.startsWith("| error |")).count();
        assertThat(rows).isLessThan(findings.size()).isPositive();
        assertThat(out).contains("> **Cut:** " + (findings.size() - rows) + " findings and 100 input notes are left out here"
                + " to keep this summary under GitHub's 1 MiB limit for a step summary")
                .contains("| 20000 | 40000 | 20000 | 20000 | 0 | 0 | **failed** (`--fail-on error`) |")
                .endsWith("<sub>retry-audit 0.1.0</sub>\n");
    }

    @Test
    void anInputErrorSaysWhyAndThatNoAuditRan() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new MarkdownReportWriter().writeError(new InputFailure("retry-audit", "0.1.0", 65,
                InputException.rejected("<b>.json", 2, 3, "$", "bad | value").error()), out);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("## retry-audit: input rejected (exit 65)\n\n"
                + "\\<b\\>.json\\:2\\:3: \\$\\: bad \\| value\n\nNo audit ran.\n");
    }
}

package dev.retryaudit.probe.suite;

import dev.retryaudit.text.Escaping;
import java.nio.charset.StandardCharsets;

/**
 * The scorecard as Markdown, for a pull request comment or a CI job summary: a heading, the command,
 * a table with one row per scenario (the deciding finding in its last column), and the total.
 */
final class ScorecardMarkdown {
    private ScorecardMarkdown() {
    }

    static byte[] of(Scorecard card) {
        StringBuilder b = new StringBuilder();
        b.append("## retry-audit probe: suite `").append(card.suite()).append("`\n\n");
        b.append("Client: `").append(code(card.commandLine())).append("`\n\n");
        b.append("| scenario | verdict | server | client | deciding finding |\n");
        b.append("|---|---|---|---|---|\n");
        for (ScorecardRow r : card.rows()) {
            b.append("| `").append(r.id()).append("` | ").append(verdict(card, r)).append(" | ")
                    .append(cell(r.server())).append(" | ").append(cell(r.client())).append(" | ")
                    .append(r.rule() == null ? "" : "`" + r.rule() + "`: ").append(cell(r.finding())).append(" |\n");
        }
        b.append("\n**").append(card.total()).append("**\n");
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String verdict(Scorecard card, ScorecardRow r) {
        String v = r.verdict().replace('_', ' ');
        return card.fails(r) ? "**" + v + "**" : v;
    }

    /** A table cell: control characters escaped, and what Markdown would act on in a table escaped. */
    static String cell(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : Escaping.controls(s).toCharArray()) {
            if ("|\\`*_[]<>#".indexOf(c) >= 0) {
                b.append('\\');
            }
            b.append(c);
        }
        return b.toString();
    }

    /** Text inside a code span: a backtick would end it, so it becomes a quote. */
    private static String code(String s) {
        return Escaping.controls(s).replace('`', '\'');
    }
}

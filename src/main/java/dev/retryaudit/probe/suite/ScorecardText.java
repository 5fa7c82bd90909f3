package dev.retryaudit.probe.suite;

import dev.retryaudit.text.Escaping;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The scorecard as a text table: a heading with the suite and the command, one line per scenario
 * (its id, verdict, what the server did, what the client did) with the deciding finding or the
 * verdict's reason indented below it, then the total. Columns are as wide as their widest cell.
 */
final class ScorecardText {
    private static final List<String> HEADINGS = List.of("SCENARIO", "VERDICT", "SERVER", "CLIENT");

    private ScorecardText() {
    }

    static byte[] of(Scorecard card) {
        List<List<String>> cells = card.rows().stream().map(r -> List.of(r.id(), mark(card, r),
                Escaping.controls(r.server()), Escaping.controls(r.client()))).toList();
        int[] width = new int[HEADINGS.size()];
        for (int c = 0; c < width.length; c++) {
            width[c] = HEADINGS.get(c).length();
            for (List<String> row : cells) {
                width[c] = Math.max(width[c], row.get(c).length());
            }
        }
        StringBuilder b = new StringBuilder();
        b.append("retry-audit probe --suite ").append(card.suite()).append(": ")
                .append(Escaping.controls(card.commandLine())).append("\n\n");
        line(b, HEADINGS, width);
        for (int i = 0; i < cells.size(); i++) {
            line(b, cells.get(i), width);
            ScorecardRow r = card.rows().get(i);
            b.append("    ").append(r.rule() == null ? "" : r.rule() + ": ").append(Escaping.controls(r.finding()))
                    .append('\n');
        }
        b.append('\n').append(card.total()).append('\n');
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The verdict as the table shows it, marked when it fails the scorecard. */
    static String mark(Scorecard card, ScorecardRow r) {
        return r.verdict().replace('_', ' ') + (card.fails(r) ? " (x)" : "");
    }

    private static void line(StringBuilder b, List<String> cells, int[] width) {
        StringBuilder l = new StringBuilder();
        for (int c = 0; c < cells.size(); c++) {
            l.append(cells.get(c));
            if (c + 1 < cells.size()) {
                l.append(" ".repeat(width[c] - cells.get(c).length() + 2));
            }
        }
        b.append(l.toString().stripTrailing()).append('\n');
    }
}

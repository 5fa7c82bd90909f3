package dev.retryaudit.probe.suite;

import dev.retryaudit.report.ProbeFacts;
import dev.retryaudit.text.Escaping;
import java.nio.charset.StandardCharsets;

/**
 * The scorecard as JUnit XML, which CI systems show as tests: one test suite named after the suite,
 * one test case per scenario. A violated scenario is a failure whose type is the deciding rule; a
 * scenario that tested nothing is a failure of type {@code probe/not-tested}, or skipped when untested
 * rows are allowed. Each case's output says what the server and the client did. No times are written,
 * so the same scorecard gives the same bytes.
 */
final class ScorecardJunit {
    private ScorecardJunit() {
    }

    static byte[] of(Scorecard card) {
        long failures = card.rows().stream().filter(card::fails).count();
        long skipped = card.rows().stream().filter(r -> !card.fails(r) && r.verdict().equals(ProbeFacts.NOT_TESTED))
                .count();
        String counts = " tests=\"" + card.rows().size() + "\" failures=\"" + failures + "\" errors=\"0\" skipped=\""
                + skipped + "\"";
        StringBuilder b = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        b.append("<testsuites name=\"retry-audit probe\"").append(counts).append(">\n");
        b.append("  <testsuite name=\"retry-audit.probe.").append(xml(card.suite())).append('"').append(counts).append(">\n");
        b.append("    <properties>\n");
        b.append("      <property name=\"command\" value=\"").append(xml(card.commandLine())).append("\"/>\n");
        b.append("      <property name=\"total\" value=\"").append(xml(card.total())).append("\"/>\n");
        b.append("    </properties>\n");
        for (ScorecardRow r : card.rows()) {
            b.append("    <testcase classname=\"retry-audit.probe.").append(xml(card.suite())).append("\" name=\"")
                    .append(xml(r.id())).append("\">\n");
            String text = (r.rule() == null ? "" : r.rule() + ": ") + r.finding();
            if (card.fails(r)) {
                String type = r.rule() == null ? r.verdict() : r.rule();
                b.append("      <failure type=\"").append(xml(type)).append("\" message=\"").append(xml(text))
                        .append("\">").append(xml(r.title() + "\nserver: " + r.server() + "\nclient: " + r.client()
                                + "\nverdict: " + r.verdict().replace('_', ' '))).append("</failure>\n");
            } else if (r.verdict().equals(ProbeFacts.NOT_TESTED)) {
                b.append("      <skipped message=\"").append(xml(text)).append("\"/>\n");
            }
            b.append("      <system-out>").append(xml("server: " + r.server() + "\nclient: " + r.client() + "\nverdict: "
                    + r.verdict().replace('_', ' ') + ": " + text)).append("</system-out>\n");
            b.append("    </testcase>\n");
        }
        b.append("  </testsuite>\n</testsuites>\n");
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Text safe in an XML attribute or element: control characters escaped as text, markup as entities. */
    static String xml(String s) {
        String lines = s == null ? "" : s;
        StringBuilder b = new StringBuilder();
        for (String part : lines.split("\n", -1)) {
            if (!b.isEmpty()) {
                b.append("&#10;");
            }
            for (char c : Escaping.controls(part).toCharArray()) {
                switch (c) {
                    case '&' -> b.append("&amp;");
                    case '<' -> b.append("&lt;");
                    case '>' -> b.append("&gt;");
                    case '"' -> b.append("&quot;");
                    case '\'' -> b.append("&apos;");
                    default -> b.append(c);
                }
            }
        }
        return b.toString();
    }
}

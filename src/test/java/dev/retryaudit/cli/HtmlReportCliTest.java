package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --format html} through the command line: what the audit keeps for the timelines, and what the page shows. */
class HtmlReportCliTest {
    static final String TIMELINE = "src/test/resources/report/inputs/timeline.json";

    @TempDir
    Path tmp;

    @Test
    void drawsTheOperationsWithFindingsAndTheirMarks() {
        CliRunner.Result r = CliRunner.run("audit", "--format", "html", TIMELINE);
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).isEmpty();
        Document d = Jsoup.parse(r.out());
        assertThat(d.select("#by-rule .msg")).hasSize(3);
        assertThat(d.select("#by-operation details[id^=op-]")).hasSize(1);
        assertThat(d.select("#by-operation summary code").first().text()).isEqualTo("pay-77");
        assertThat(d.select("svg rect.early")).hasSize(1);
        assertThat(d.select("svg rect.overlap")).hasSize(1);
        assertThat(d.select("svg rect.ra")).hasSize(1);
        assertThat(d.select("p.aside")).isEmpty();
    }

    @Test
    void theAuditKeepsAtMostTheCapOfOperations() throws IOException {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 55; i++) {
            lines.append("{\"operation_id\":\"op-").append(i).append("\",\"tool\":\"t\",\"attempt_id\":1,"
                    + "\"started_at\":\"2026-09-07T10:00:00.000Z\",\"duration_ms\":5}\n");
            lines.append("{\"operation_id\":\"op-").append(i).append("\",\"tool\":\"t\",\"attempt_id\":3,"
                    + "\"started_at\":\"2026-09-07T10:00:01.000Z\",\"duration_ms\":5,\"retry_reason\":\"x\"}\n");
        }
        Path in = tmp.resolve("gaps.jsonl");
        Files.writeString(in, lines);
        CliRunner.Result r = CliRunner.run("audit", "--format", "html", "--enable", "trace", "--disable",
                "effect-verification", in.toString());
        Document d = Jsoup.parse(r.out());
        assertThat(d.select("#by-operation details[id^=op-]")).hasSize(55);
        assertThat(d.select("#by-operation svg")).hasSize(50);
        assertThat(d.select("#by-operation details[id^=op-]").get(49).select("svg")).hasSize(1);
        assertThat(d.select("#by-operation details[id^=op-]").get(50).select("svg")).isEmpty();
        assertThat(d.select("p.aside").text()).startsWith("5 operations with findings listed without a timeline");
    }

    @Test
    void anOperationWhoseFindingsTheBaselineHoldsIsNotDrawn() throws IOException {
        Path base = tmp.resolve("base.json");
        assertThat(CliRunner.run("audit", "--output", base.toString(), TIMELINE).exit()).isEqualTo(2);
        CliRunner.Result r = CliRunner.run("audit", "--format", "html", "--baseline", base.toString(), TIMELINE);
        assertThat(r.exit()).isZero();
        Document d = Jsoup.parse(r.out());
        assertThat(d.select("svg")).isEmpty();
        assertThat(d.select("#summary p").text()).isEqualTo("3 findings suppressed by the baseline " + base + ".");
    }

    @Test
    void anInputErrorIsAPageThatSaysWhy() throws IOException {
        Path out = tmp.resolve("report.html");
        CliRunner.Result r = CliRunner.run("audit", "--format", "html", "--output", out.toString(),
                "src/test/resources/report/inputs/bad-field.json");
        assertThat(r.exit()).isEqualTo(65);
        String diagnostic = r.err().strip();
        Document d = Jsoup.parse(Files.readString(out, StandardCharsets.UTF_8));
        assertThat(d.select(".verdict").text()).isEqualTo("input rejected");
        assertThat(d.select("p.msg").text()).isEqualTo(diagnostic);
    }

    @Test
    @Tag("timing")
    void aProbeRunIsDrawnToo() {
        CliRunner.Result r = CliRunner.run("probe", "--format", "html", "--failures", "1", "--delay", "30", "--timeout",
                "20", "--", "sh", "-c", "curl -s -o /dev/null \"$RETRY_AUDIT_PROBE_URL\"; "
                        + "curl -s -o /dev/null \"$RETRY_AUDIT_PROBE_URL\"");
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        Document d = Jsoup.parse(r.out());
        assertThat(d.select("header p.line").eachText()).anySatisfy(l -> assertThat(l).startsWith("retry-audit: probe: "));
        assertThat(d.select("#by-rule code").eachText()).contains("retry-after/early");
        assertThat(d.select("#by-operation svg rect.ra")).hasSize(1);
        assertThat(d.select("#by-operation svg rect.early")).hasSize(1);
    }

    @Test
    void theSameInputGivesTheSameBytes() {
        assertThat(CliRunner.run("audit", "--format", "html", TIMELINE, "examples/checkout-spans.jsonl").out())
                .isEqualTo(CliRunner.run("audit", "--format", "html", TIMELINE, "examples/checkout-spans.jsonl").out());
    }
}

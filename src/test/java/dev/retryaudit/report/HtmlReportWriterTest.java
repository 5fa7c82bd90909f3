package dev.retryaudit.report;

import dev.retryaudit.model.FailOn;
import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.input.InputSet;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Severity;
import dev.retryaudit.report.html.Html;
import dev.retryaudit.report.html.Timeline;
import dev.retryaudit.text.Escaping;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The HTML page: escaping of every input string, its own policy, the caps on what it draws. */
class HtmlReportWriterTest {
    /** Every element the writer itself emits; an input string that became markup would add another. */
    static final Set<String> OURS = Set.of("#root", "html", "head", "body", "meta", "title", "style", "header", "h1", "h2",
            "p", "span", "section", "table", "tr", "th", "td", "tbody", "details", "summary", "code", "ol", "ul",
            "li", "div", "b", "footer", "svg", "text", "line", "rect", "circle");
    static final String MARKUP = "</style><script>alert(1)</script>\"><img src=x onerror=alert(2)>'<!--";

    @TempDir
    Path tmp;

    @Test
    void hostileStringsStayText() throws IOException {
        Report r = new Report("retry-audit", "0.1.0", List.of(new InputSummary(MARKUP, "spans", 1, 2)),
                List.of(Finding.builder().rule(ReportContractTest.GAP.id()).severity(Severity.ERROR).operation(MARKUP)
                        .attempt(1).tool(MARKUP).run(MARKUP).message(HostileStrings.MESSAGE + MARKUP)
                        .evidence(Evidence.of()).at(new Location(MARKUP, 0, 1, 1, null)).build(),
                        Finding.builder().rule(ReportContractTest.GAP.id()).severity(Severity.ERROR)
                                .operation("op\u001b").tool("t").run(MARKUP).message(HostileStrings.LONG)
                                .evidence(Evidence.of()).at(new Location("plain.json", 0, 2, 1, null)).build()),
                FailOn.ERROR, ReportContractTest.RULES, MARKUP, 1);
        String html = render(r);
        assertThat(HostileStrings.hasRawControl(html)).isFalse();
        assertThat(html).doesNotContain(MARKUP).doesNotContain("<script").doesNotContain("<img").doesNotContain("<!--");
        Document doc = Jsoup.parse(html);
        assertThat(doc.getAllElements().stream().map(Element::tagName).collect(Collectors.toSet())).isSubsetOf(OURS);
        assertThat(doc.getAllElements().stream().flatMap(e -> e.attributes().asList().stream())
                .filter(a -> a.getKey().startsWith("on") || a.getKey().equals("src") || a.getKey().equals("href")))
                .isEmpty();
        List<String> messages = doc.select("#by-rule .msg").eachText();
        assertThat(messages).containsExactly(Escaping.controls(HostileStrings.MESSAGE + MARKUP)
                .replaceAll("\\s+", " ").strip(), Escaping.controls(HostileStrings.LONG));
        assertThat(doc.select("#summary td.mono").text()).isEqualTo(MARKUP);
    }

    @Test
    void escapingCoversTextAndAttributes() {
        assertThat(Html.escape("<a href='x'>&\"</a>\u0000")).isEqualTo("&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;\\u0000");
        assertThat(Html.escape(null)).isEmpty();
        assertThat(Html.escape("plain text")).isEqualTo("plain text");
    }

    @Test
    void thePolicyAllowsExactlyTheInlineStyleSheet() throws IOException, NoSuchAlgorithmException {
        String html = render(ReportContractTest.scenarios().get(2).report());
        Matcher style = Pattern.compile("<style>(.*?)</style>", Pattern.DOTALL).matcher(html);
        assertThat(style.find()).isTrue();
        String hash = Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256")
                .digest(style.group(1).getBytes(StandardCharsets.UTF_8)));
        Element meta = Jsoup.parse(html).selectFirst("meta[http-equiv=Content-Security-Policy]");
        assertThat(meta).isNotNull();
        assertThat(meta.attr("content")).isEqualTo("default-src 'none'; style-src 'sha256-" + hash
                + "'; base-uri 'none'; form-action 'none'");
        assertThat(html).doesNotContain(" style=").doesNotContain("<script").doesNotContain("<link");
        assertThat(html.replace("xmlns=\"http://www.w3.org/2000/svg\"", "")).doesNotContain("http:").doesNotContain("https:");
    }

    @Test
    void drawsAtMostTheCapAndCountsTheRest() throws IOException, InputException {
        int n = HtmlReportWriter.MAX_TIMELINES + 10;
        StringBuilder doc = new StringBuilder("{\"version\": 1, \"operations\": [");
        List<Finding> findings = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            doc.append(i == 0 ? "" : ",").append("{\"id\": \"op-").append(i).append("\", \"tool\": \"t\", \"attempts\": [")
                    .append("{\"attempt_id\": 1, \"started_at\": \"2026-09-07T10:00:00.000Z\", \"duration_ms\": 10},")
                    .append("{\"attempt_id\": 2, \"started_at\": \"2026-09-07T10:00:01.000Z\", \"duration_ms\": 10}]}");
            findings.add(Finding.builder().rule(ReportContractTest.GAP.id()).severity(Severity.ERROR)
                    .operation("op-" + i).attempt(2).tool("t").message("finding " + i).evidence(Evidence.of())
                    .at(new Location("a.json", 0, i + 1, 1, null)).build());
        }
        List<Operation> ops = read(doc.append("]}").toString());
        Report r = new Report("retry-audit", "0.1.0", List.of(new InputSummary("a.json", "operations", n, 2 * n)),
                findings, FailOn.ERROR, ReportContractTest.RULES, null, 0).withTimelines(ops);
        Document page = Jsoup.parse(render(r));
        assertThat(page.select("#by-operation svg")).hasSize(HtmlReportWriter.MAX_TIMELINES);
        assertThat(page.select("#by-operation details")).hasSize(n);
        assertThat(page.select("#by-operation p.aside").text())
                .startsWith("10 operations with findings listed without a timeline: timelines are drawn for at most 50");
        assertThat(page.select("#by-operation .msg").eachText()).hasSize(n).contains("finding 0", "finding " + (n - 1));
    }

    @Test
    void aLongOperationDrawsTheFirstAttemptsAndCountsTheRest() throws IOException, InputException {
        StringBuilder doc = new StringBuilder("{\"version\": 1, \"operations\": [{\"id\": \"long\", \"tool\": \"t\", \"attempts\": [");
        int n = Timeline.MAX_ATTEMPTS + 50;
        for (int i = 1; i <= n; i++) {
            doc.append(i == 1 ? "" : ",").append("{\"attempt_id\": ").append(i)
                    .append(", \"started_at\": \"2026-09-07T10:00:00.000Z\", \"duration_ms\": ").append(i).append("}");
        }
        List<Operation> ops = read(doc.append("]}]}").toString());
        Finding f = Finding.builder().rule(ReportContractTest.GAP.id()).severity(Severity.ERROR).operation("long")
                .attempt(3).tool("t").message("m").evidence(Evidence.of()).at(new Location("a.json", 0, 1, 1, null))
                .build();
        String svg = Timeline.svg(ops.get(0), List.of(f));
        assertThat(svg).contains(">50 more attempts not drawn (at most 200 are)</text>");
        assertThat(Pattern.compile("<rect class=\"o-").matcher(svg).results().count()).isEqualTo(Timeline.MAX_ATTEMPTS);
        assertThat(svg).contains("<text x=\"4\" y=\"" + (40 + 2 * 24 + 16) + "\">#3</text>");
    }

    @Test
    void windowsEarlyRetriesOverlapsAndCommitStatesAreDrawn() throws IOException, InputException {
        List<Operation> ops = read(Files.readString(Path.of("src/test/resources/report/inputs/timeline.json")));
        Operation pay = ops.get(0);
        List<Finding> fs = List.of(
                finding("retry-after/early", 2), finding("timeout-replay/repeated-unknown", 3), finding("trace/overlap", 3));
        String svg = Timeline.svg(pay, fs);
        Document d = Jsoup.parse(svg);
        assertThat(d.select("rect.ra")).hasSize(1);
        assertThat(d.select("rect.ra title").text()).isEqualTo("Retry-After: 2 on attempt 1: no retry before 2026-09-07T10:00:02.300Z");
        assertThat(d.select("rect.o-timeout.early")).hasSize(1);
        assertThat(d.select("rect.o-success.overlap")).hasSize(1);
        assertThat(d.select("text.flag").eachText()).containsExactly("early", "overlap");
        assertThat(d.select("text[class^=c-]").eachText()).containsExactly("not_sent · server", "unknown · runner",
                "committed · server");
        assertThat(d.select("text.mark-n").eachText()).containsExactly("1", "2", "3");
    }

    @Test
    void anOperationWithoutTimesHasNoTimeline() throws InputException, IOException {
        Operation op = read("{\"version\": 1, \"operations\": [{\"id\": \"x\", \"tool\": \"t\", \"attempts\": "
                + "[{\"attempt_id\": 1}, {\"attempt_id\": 2}]}]}").get(0);
        assertThat(Timeline.svg(op, List.of())).isNull();
        Report r = new Report("retry-audit", "0.1.0", List.of(new InputSummary("a.json", "operations", 1, 2)),
                List.of(finding("contract/attempt-gap", 2)), FailOn.ERROR, ReportContractTest.RULES, null, 0)
                .withTimelines(List.of(op));
        assertThat(render(r)).contains("No attempt has a start time: there is no timeline to draw.");
    }

    @Test
    void aProbeReportSaysWhatArrivedIncludingRequestsThatNeverArrivedWhole() throws IOException {
        ProbeFacts probe = new ProbeFacts("http://127.0.0.1:1/p", new ProbeFacts.Served("GET", 429, 3, List.of(3L),
                "seconds", 0, true, "Idempotency-Key"), new ProbeFacts.ClientEnd(List.of("c"), 0, false, 5),
                new ProbeFacts.Counts(0, 0, 0, 3, 0, false), ProbeFacts.NOT_TESTED, "why", null, List.of(), null);
        Report r = new Report("retry-audit", "0.1.0", List.of(new InputSummary("<probe>", "retry-trace", 0, 0)),
                List.of(), FailOn.ERROR, ReportContractTest.RULES, null, 0).withProbe(probe);

        assertThat(render(r)).contains("<p class=\"line\">retry-audit: probe: the client exited with code 0: 0 GETs,"
                + " 3 requests that never arrived whole (not attempts), did not reach success; not tested: why</p>");
    }

    private static Finding finding(String rule, int attempt) {
        return Finding.builder().rule(rule).severity(Severity.ERROR)
                .operation(rule.equals("contract/attempt-gap") ? "x" : "pay-77").attempt(attempt).tool("t")
                .message(rule + " on " + attempt).evidence(Evidence.of()).at(new Location("a.json", 0, 1, 1, null))
                .fingerprint("sha256:0").build();
    }

    private List<Operation> read(String json) throws IOException, InputException {
        Path file = tmp.resolve("ops-" + System.nanoTime() + ".json");
        Files.writeString(file, json);
        List<Operation> ops = new ArrayList<>();
        new InputSet(InputFormat.OPERATIONS, Limits.DEFAULTS).readAll(List.of(InputSet.Source.of(file.toString())), null,
                ops::add);
        return ops;
    }

    private static String render(Report r) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new HtmlReportWriter().write(r, out);
        return out.toString(StandardCharsets.UTF_8);
    }
}

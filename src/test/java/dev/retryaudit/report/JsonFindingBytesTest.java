package dev.retryaudit.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.FailOn;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.values.RawJson;
import dev.retryaudit.json.Json;
import dev.retryaudit.rules.RuleInfo;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The JSON report's findings, written straight into bytes, are the bytes jackson's generator writes for them. */
class JsonFindingBytesTest {
    private static final String[] STRINGS = {"", "plain", "quote \" and \\ back", "\u0000\u0001\b\t\n\f\r\u001f\u007f",
        "\u0080 é € \u2028 \ufeff", "😀 pair", "lone \ud800 high", "lone \udc00 low", "/slash/", HostileStrings.MESSAGE,
        HostileStrings.SOURCE, "x".repeat(40_000), "é".repeat(20_000)};

    @Test
    void everyValueIsWrittenAsTheGeneratorWritesIt() throws IOException {
        List<Finding> findings = new ArrayList<>();
        int n = 0;
        for (String s : STRINGS) {
            Evidence e = Evidence.of().put("string", s).put(s.isEmpty() ? "empty key" : s, n)
                    .put("long", Long.MIN_VALUE + n).put("max", Long.MAX_VALUE).put("negative", -n - 1)
                    .put("double", 0.1 * n).put("nan", Double.NaN).put("infinite", Double.NEGATIVE_INFINITY)
                    .put("big", 1e300).put("true", true).put("false", false).put("null", null)
                    .put("raw", new RawJson("{\"a\": [1, \"" + (n % 2 == 0 ? "é" : "b") + "\"]}"))
                    .put("list", List.of(s, 1, List.of(), List.of(List.of(true, s)), Arrays.asList(null, 2.5)))
                    .put("empty", List.of()).putTime("at", 1_700_000_000_123L + n);
            findings.add(Finding.builder().rule(RULES.get(n % RULES.size()).id())
                    .severity(RULES.get(n % RULES.size()).severity()).operation(n % 3 == 0 ? null : s)
                    .attempt(n % 2 == 0 ? null : n).tool(n % 4 == 0 ? null : s).run(n % 5 == 0 ? s : null)
                    .message(s.isEmpty() ? "message" : s).evidence(n % 6 == 0 ? Evidence.of() : e)
                    .at(new Location(s, n, 1 + n * 1_000_000_000L, 1 + n, n % 2 == 0 ? null : "/" + s)).build());
            n++;
        }
        for (int size : new int[] {1, 2, findings.size()}) {
            List<Finding> some = findings.subList(0, size);
            Report r = report(some);
            assertThat(findingsOf(write(r))).isEqualTo(findingsByGenerator(r.findings()));
        }
    }

    @Test
    void chunksOfManyFindingsJoinAsOneArray() throws IOException {
        List<Finding> findings = new ArrayList<>();
        for (int i = 0; i < 3 * Chunks.SIZE + 7; i++) {
            findings.add(Finding.builder().rule(ReportContractTest.GAP.id()).severity(ReportContractTest.GAP.severity())
                    .operation("op-" + i).attempt(i).tool("t").message("m " + i).evidence(Evidence.of().put("i", i))
                    .at(new Location("in.jsonl", 0, i + 1, 1, "/" + i)).build());
        }
        Report r = report(findings);
        assertThat(findingsOf(write(r))).isEqualTo(findingsByGenerator(r.findings()));
    }

    private static final List<RuleInfo> RULES = ReportContractTest.RULES;

    private static Report report(List<Finding> findings) {
        return new Report("retry-audit", "0.1.0", List.of(new InputSummary("in", "spans", 1, 1)), findings,
                FailOn.ERROR, RULES, "base.json", 1);
    }

    private static String write(Report r) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new JsonReportWriter().write(r, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The findings array and what follows it. */
    private static String findingsOf(String report) {
        return report.substring(report.indexOf("\n  \"findings\": "), report.indexOf("\n  \"baseline\""));
    }

    private static String findingsByGenerator(List<Finding> findings) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = Json.generator(out)) {
            g.writeStartObject();
            g.writeNumberField("version", 1);
            g.writeArrayFieldStart("findings");
            for (Finding f : findings) {
                JsonReportWriter.writeFinding(g, f);
            }
            g.writeEndArray();
            g.writeObjectFieldStart("baseline");
            g.writeEndObject();
            g.writeEndObject();
        }
        return findingsOf(out.toString(StandardCharsets.UTF_8));
    }
}

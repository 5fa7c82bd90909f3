package dev.retryaudit.probe.suite;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.retryaudit.report.ProbeFacts;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.w3c.dom.Document;
import org.junit.jupiter.api.Test;

/**
 * Every scorecard format, byte for byte against its golden file, for a fixed scorecard with a row of each
 * verdict (and a finding with markup, a quote and a control character in it). Run with
 * {@code -Dgolden.update=true} to rewrite the goldens after an intended change, then review the diff.
 */
class ScorecardFormatTest {
    static final Path GOLDEN = Path.of("src/test/resources/probe-suite/golden");
    private static final boolean UPDATE = Boolean.getBoolean("golden.update");

    static Scorecard card(boolean allowNotTested) {
        List<ScorecardRow> rows = List.of(
                new ScorecardRow("seconds-schedule", "Retry-After in seconds, 3 then 1 then 4",
                        "3x 429 Retry-After: 3, 1, 4 s, then 200", "4 GETs, waits 3004, 1010, 4006 ms; exit 0",
                        ProbeFacts.HONOURED, null, "every retry waited what was asked (asked 3000, 1000, 4000 ms, waited"
                                + " 3004, 1010, 4006 ms)", new ScorecardRow.Facts(4, List.of(3004L, 1010L, 4006L), 0, false)),
                new ScorecardRow("retry-after-ms", "retry-after-ms alone", "2x 429 retry-after-ms: 2, 1 s, then 200",
                        "3 GETs, waits 1003, 2006 ms; exit 0", ProbeFacts.VIOLATED, "retry-after/early",
                        "attempt 2 of curl -sS --retry 5 {url} came back 997 ms before Retry-After allowed <\"a|b\" & 'c'>\u0007",
                        new ScorecardRow.Facts(3, List.of(1003L, 2006L), 0, false)),
                new ScorecardRow("overloaded-529", "529 overloaded, no Retry-After", "2x 529 without Retry-After, then 200",
                        "1 GET; killed at 30 s", ProbeFacts.NOT_TESTED, "probe/not-tested",
                        "nothing was tested: the client was killed at the 30 s timeout before retrying",
                        new ScorecardRow.Facts(1, List.of(), null, true)));
        return new Scorecard("retry-audit", "0.3.0", "http", List.of("curl", "-sS", "--retry", "5", "{url}"), rows,
                allowNotTested);
    }

    static byte[] write(ScorecardFormat format, Scorecard card) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        format.write(card, out);
        return out.toByteArray();
    }

    @ParameterizedTest
    @EnumSource(ScorecardFormat.class)
    void everyFormatMatchesItsGolden(ScorecardFormat format) throws Exception {
        for (boolean allow : List.of(false, true)) {
            byte[] out = write(format, card(allow));
            Path golden = GOLDEN.resolve("scorecard" + (allow ? "-allowed" : "") + "." + format.id());
            if (UPDATE) {
                Files.createDirectories(GOLDEN);
                Files.write(golden, out);
            }
            assertThat(new String(out, StandardCharsets.UTF_8)).as(golden.toString())
                    .isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
            assertThat(write(format, card(allow))).as("deterministic").isEqualTo(out);
        }
    }

    @Test
    void theJunitXmlIsWellFormedWithOneTestCasePerScenario() throws Exception {
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(write(ScorecardFormat.JUNIT, card(false))));

        assertThat(doc.getElementsByTagName("testcase").getLength()).isEqualTo(3);
        assertThat(doc.getElementsByTagName("failure").getLength()).isEqualTo(2);
        assertThat(doc.getElementsByTagName("skipped").getLength()).isZero();
        assertThat(doc.getElementsByTagName("failure").item(0).getAttributes().getNamedItem("message").getNodeValue())
                .contains("<\"a|b\" & 'c'>\\u0007");
        Document allowed = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(write(ScorecardFormat.JUNIT, card(true))));
        assertThat(allowed.getElementsByTagName("skipped").getLength()).isEqualTo(1);
    }

    @Test
    void theSarifHasOneResultPerScenarioByVerdict() throws Exception {
        JsonNode sarif = new ObjectMapper().readTree(write(ScorecardFormat.SARIF, card(false)));
        JsonNode results = sarif.get("runs").get(0).get("results");

        assertThat(results).hasSize(3);
        assertThat(results.findValuesAsText("kind")).containsExactly("pass", "fail", "open");
        assertThat(results.findValuesAsText("level")).containsExactly("none", "error", "error");
        assertThat(results.get(1).get("ruleId").asText()).isEqualTo("http/retry-after-ms");
    }

    @Test
    void aScorecardPassesOnlyWithNothingViolatedAndSomethingHonoured() {
        Scorecard card = card(true);
        assertThat(card.passed()).isFalse();
        Scorecard clean = new Scorecard("retry-audit", "0.3.0", "http", List.of("c"),
                List.of(card.rows().get(0), card.rows().get(2)), true);
        assertThat(clean.passed()).isTrue();
        assertThat(clean.total()).isEqualTo("2 scenarios: 1 honoured, 0 violated, 1 not tested (allowed); PASSED");
        Scorecard strict = new Scorecard("retry-audit", "0.3.0", "http", List.of("c"), clean.rows(), false);
        assertThat(strict.passed()).isFalse();
        assertThat(new Scorecard("t", "v", "http", List.of("c"), List.of(card.rows().get(2)), true).passed()).isFalse();
    }
}

package dev.retryaudit.report;

import dev.retryaudit.model.FailOn;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Severity;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The SARIF log keeps what the schema and GitHub code scanning require, on every scenario of the contract test. */
class SarifReportWriterTest {
    private static final Set<String> LEVELS = Set.of("error", "warning", "note");

    @Test
    void everyScenarioHasTheStructureCodeScanningNeeds() throws IOException {
        for (ReportContractTest.Scenario s : ReportContractTest.scenarios()) {
            JsonNode log = new ObjectMapper().readTree(ReportContractTest.render(s, new SarifReportWriter()));
            checkStructure(s.toString(), log);
        }
    }

    @Test
    void resultsCarryRuleIndexLevelLocationAndFingerprint() throws IOException {
        ReportContractTest.Scenario many = ReportContractTest.scenarios().get(2);
        JsonNode run = new ObjectMapper().readTree(ReportContractTest.render(many, new SarifReportWriter())).get("runs").get(0);
        JsonNode results = run.get("results");
        assertThat(results).hasSize(many.report().findings().size());
        for (int i = 0; i < results.size(); i++) {
            Finding f = many.report().findings().get(i);
            JsonNode r = results.get(i);
            assertThat(r.get("ruleId").asText()).isEqualTo(f.rule());
            assertThat(r.get("level").asText()).isEqualTo(SarifReportWriter.level(f.severity()));
            assertThat(r.get("partialFingerprints").get(SarifReportWriter.FINGERPRINT_KEY).asText()).isEqualTo(f.fingerprint());
            JsonNode loc = r.get("locations").get(0).get("physicalLocation");
            assertThat(loc.get("artifactLocation").get("uri").asText()).isEqualTo(f.location().source());
            assertThat(loc.get("region").get("startLine").asLong()).isEqualTo(f.location().line());
            assertThat(loc.get("region").get("startColumn").asLong()).isEqualTo(f.location().column());
        }
        assertThat(run.get("invocations").get(0).get("executionSuccessful").asBoolean()).isTrue();
    }

    @Test
    void anInputErrorIsAnUnsuccessfulRunWithTheErrorAsNotification() throws IOException {
        ReportContractTest.Scenario error = ReportContractTest.scenarios().get(3);
        JsonNode run = new ObjectMapper().readTree(ReportContractTest.render(error, new SarifReportWriter())).get("runs").get(0);
        JsonNode invocation = run.get("invocations").get(0);
        assertThat(invocation.get("executionSuccessful").asBoolean()).isFalse();
        assertThat(invocation.get("exitCode").asInt()).isEqualTo(65);
        JsonNode note = invocation.get("toolExecutionNotifications").get(0);
        assertThat(note.get("level").asText()).isEqualTo("error");
        assertThat(note.get("message").get("text").asText()).contains("did you mean commit_state?");
        assertThat(note.get("locations").get(0).get("physicalLocation").get("region").get("startColumn").asInt()).isEqualTo(17);
        assertThat(run.get("results")).isEmpty();
    }

    @Test
    void resultsAreCutAtGithubsLimitWithANote() throws IOException {
        List<Finding> findings = new ArrayList<>();
        for (int i = 1; i <= SarifReportWriter.MAX_RESULTS + 1; i++) {
            findings.add(Finding.builder().rule(ReportContractTest.GAP.id()).severity(Severity.ERROR)
                    .operation("op-" + i).attempt(1).tool("t").message("m " + i).evidence(Evidence.of())
                    .at(new Location("a.json", 0, i, 1, null)).build());
        }
        Report r = new Report("retry-audit", "0.1.0", List.of(new InputSummary("a.json", "operations", findings.size(),
                findings.size())), findings, FailOn.ERROR, ReportContractTest.RULES, null, 0);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new SarifReportWriter().write(r, out);
        JsonNode run = new ObjectMapper().readTree(out.toByteArray()).get("runs").get(0);
        assertThat(run.get("results")).hasSize(25_000);
        JsonNode invocation = run.get("invocations").get(0);
        assertThat(invocation.get("executionSuccessful").asBoolean()).isTrue();
        assertThat(invocation.get("toolExecutionNotifications").get(0).get("message").get("text").asText())
                .contains("only the first 25000 of 25001 results");
    }

    @Test
    void aReportWithinTheLimitHasNoNote() throws IOException {
        ReportContractTest.Scenario one = ReportContractTest.scenarios().get(1);
        JsonNode invocation = new ObjectMapper().readTree(ReportContractTest.render(one, new SarifReportWriter(1)))
                .get("runs").get(0).get("invocations").get(0);
        assertThat(invocation.has("toolExecutionNotifications")).isFalse();
    }

    @Test
    void sourceNamesBecomeRelativeUriReferences() {
        assertThat(SarifReportWriter.uri("traces/a.json")).isEqualTo("traces/a.json");
        assertThat(SarifReportWriter.uri("my traces/día 1.json")).isEqualTo("my%20traces/d%C3%ADa%201.json");
        assertThat(SarifReportWriter.uri("<stdin>")).isEqualTo("%3Cstdin%3E");
        assertThat(SarifReportWriter.uri("c:\\x#1?.json")).isEqualTo("c%3A%5Cx%231%3F.json");
    }

    @Test
    void ruleNamesAndDescriptionsComeFromTheRuleAndItsDocumentation() {
        assertThat(SarifReportWriter.pascalCase("timeout-replay/unreconciled")).isEqualTo("TimeoutReplayUnreconciled");
        assertThat(SarifReportWriter.firstParagraph("# t\n\nFirst line\nsecond line.\n\nMore.\n"))
                .isEqualTo("First line second line.");
        assertThat(SarifReportWriter.firstParagraph("# only a title\n")).isEmpty();
    }

    @Test
    void everySeverityHasALevel() {
        for (Severity s : Severity.values()) {
            assertThat(SarifReportWriter.level(s)).isIn(LEVELS);
        }
    }

    private static void checkStructure(String name, JsonNode log) {
        assertThat(log.get("$schema").asText()).as(name).startsWith("https://");
        assertThat(log.get("version").asText()).as(name).isEqualTo("2.1.0");
        assertThat(log.get("runs")).as(name).hasSize(1);
        JsonNode run = log.get("runs").get(0);
        JsonNode driver = run.get("tool").get("driver");
        for (String field : List.of("name", "version", "semanticVersion", "informationUri")) {
            assertThat(driver.get(field).asText()).as(name + " driver." + field).isNotBlank();
        }
        JsonNode rules = driver.path("rules");
        for (JsonNode rule : rules) {
            assertThat(rule.get("id").asText()).isNotBlank();
            assertThat(rule.get("name").asText()).matches("[A-Z][A-Za-z0-9]*");
            for (String field : List.of("shortDescription", "fullDescription", "help")) {
                assertThat(rule.get(field).get("text").asText()).as(name + " " + field).isNotBlank();
            }
            assertThat(rule.get("defaultConfiguration").get("level").asText()).isIn(LEVELS);
        }
        for (JsonNode result : run.get("results")) {
            int index = result.get("ruleIndex").asInt();
            assertThat(rules.get(index).get("id").asText()).as(name + " ruleIndex").isEqualTo(result.get("ruleId").asText());
            assertThat(result.get("level").asText()).isIn(LEVELS);
            assertThat(result.get("message").get("text").asText()).isNotBlank();
            assertThat(result.get("locations")).hasSize(1);
            JsonNode physical = result.get("locations").get(0).get("physicalLocation");
            assertThat(physical.get("artifactLocation").get("uri").asText()).isNotBlank();
            assertThat(physical.get("region").get("startLine").asLong()).isGreaterThanOrEqualTo(1);
            assertThat(physical.get("region").get("startColumn").asLong()).isGreaterThanOrEqualTo(1);
            assertThat(result.get("partialFingerprints").size()).isPositive();
        }
        assertThat(run.get("invocations")).as(name).hasSize(1);
        assertThat(run.get("invocations").get(0).get("executionSuccessful").isBoolean()).isTrue();
    }
}

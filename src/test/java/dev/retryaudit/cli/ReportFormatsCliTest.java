package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each report format, {@code --color} and {@code --baseline} through the command line, as a user runs them. */
class ReportFormatsCliTest {
    static final String DIR = "src/test/resources/report/inputs/";
    static final String GAPS = DIR + "gaps.jsonl";
    static final String REASONS = DIR + "reasons.json";
    static final String CLEAN = DIR + "checkout.json";
    static final String BAD = DIR + "bad-field.json";

    @TempDir
    Path tmp;

    @Test
    void textListsEachFindingThenTheRuleTableAndVerdict() {
        CliRunner.Result r = CliRunner.run("audit", "--format", "text", GAPS, REASONS);
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).isEmpty();
        List<String> lines = r.out().lines().toList();
        assertThat(lines.get(0)).isEqualTo(GAPS + ":1:1: error: the attempt ids of op-gap are [1, 3], not 1..2: "
                + "attempts are missing from the sequence [trace/attempt-sequence]");
        assertThat(lines).contains("findings by rule:", "      4  trace/retry-reason", "      2  trace/attempt-sequence");
        assertThat(lines.get(lines.size() - 1)).isEqualTo("retry-audit: 3 operations, 7 attempts, 4 retries; "
                + "5 errors, 1 warning, 0 notes; failed (--fail-on error)");
        assertThat(r.out()).doesNotContain("\u001b");
    }

    @Test
    void textOfACleanAuditPasses() {
        CliRunner.Result r = CliRunner.run("audit", "--format", "text", CLEAN);
        assertThat(r.exit()).isZero();
        assertThat(r.out()).isEqualTo("no findings\nretry-audit: 2 operations, 4 attempts, 2 retries; "
                + "0 errors, 0 warnings, 0 notes; passed (--fail-on error)\n");
    }

    @Test
    void colourFollowsTheFlag() {
        assertThat(CliRunner.run("audit", "--format", "text", "--color", "always", GAPS).out())
                .contains("\u001b[1;31merror:\u001b[0m");
        assertThat(CliRunner.run("audit", "--format", "text", "--color", "never", GAPS).out()).doesNotContain("\u001b");
        assertThat(CliRunner.run("audit", "--format", "text", "--color", "auto", GAPS).out())
                .as("captured stdout is no terminal").doesNotContain("\u001b");
    }

    @Test
    void colourIsNeverWrittenToAnOutputFile() throws IOException {
        Path out = tmp.resolve("report.txt");
        CliRunner.Result r = CliRunner.run("audit", "--format", "text", "--color", "always", "--output", out.toString(), GAPS);
        assertThat(r.exit()).isEqualTo(2);
        assertThat(Files.readString(out)).startsWith(GAPS + ":1:1: error:").doesNotContain("\u001b");
    }

    @Test
    void aBadColourIsAUsageError() {
        CliRunner.Result r = CliRunner.run("audit", "--color", "sometimes", GAPS);
        assertThat(r.exit()).isEqualTo(64);
        assertThat(r.err()).contains("invalid value for option '--color': expected one of auto, always, never")
                .contains("Try 'retry-audit audit --help'");
    }

    @Test
    void sarifListsTheEnabledRulesAndTheSameFindingsAsJson() throws IOException {
        CliRunner.Result sarif = CliRunner.run("audit", "--format", "sarif", GAPS, REASONS);
        CliRunner.Result json = CliRunner.run("audit", GAPS, REASONS);
        assertThat(sarif.exit()).isEqualTo(2);
        JsonNode run = new ObjectMapper().readTree(sarif.out()).get("runs").get(0);
        List<String> ruleIds = new ArrayList<>();
        run.get("tool").get("driver").get("rules").forEach(rule -> ruleIds.add(rule.get("id").asText()));
        assertThat(ruleIds).containsExactlyElementsOf(
                dev.retryaudit.rules.RuleRegistry.all().stream().map(r -> r.info().id()).toList());
        List<String> sarifPrints = new ArrayList<>();
        run.get("results").forEach(res -> sarifPrints.add(res.get("partialFingerprints").elements().next().asText()));
        List<String> jsonPrints = new ArrayList<>();
        new ObjectMapper().readTree(json.out()).get("findings").forEach(f -> jsonPrints.add(f.get("fingerprint").asText()));
        assertThat(sarifPrints).isEqualTo(jsonPrints).hasSizeGreaterThanOrEqualTo(6);
        assertThat(run.get("results").get(0).get("locations").get(0).get("physicalLocation").get("artifactLocation")
                .get("uri").asText()).isEqualTo(GAPS);
    }

    @Test
    void sarifListsOnlyTheEnabledRules() throws IOException {
        CliRunner.Result r = CliRunner.run("audit", "--format", "sarif", "--disable", "trace/retry-reason", GAPS);
        JsonNode rules = new ObjectMapper().readTree(r.out()).get("runs").get(0).get("tool").get("driver").get("rules");
        assertThat(rules.findValuesAsText("id")).doesNotContain("trace/retry-reason").contains("trace/attempt-sequence");
    }

    @Test
    void githubAnnotatesEachFindingThenSummarises() {
        CliRunner.Result r = CliRunner.run("audit", "--format", "github", "--fail-on", "never", GAPS, REASONS);
        assertThat(r.exit()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines).hasSize(7);
        assertThat(lines.get(0)).isEqualTo("::error file=" + GAPS + ",line=1,col=1,title=trace/attempt-sequence::"
                + "the attempt ids of op-gap are [1, 3], not 1..2: attempts are missing from the sequence");
        assertThat(lines.get(3)).startsWith("::warning file=" + REASONS + ",line=9,col=9,title=trace/retry-reason::");
        assertThat(lines.get(6)).endsWith("passed (--fail-on never)");
    }

    @Test
    void anInputErrorPrintsTheDiagnosticOnStderrInEveryFormat() throws IOException {
        for (String format : List.of("json", "text", "sarif", "github")) {
            CliRunner.Result r = CliRunner.run("audit", "--format", format, BAD);
            assertThat(r.exit()).as(format).isEqualTo(65);
            assertThat(r.err()).as(format).isEqualTo(BAD + ":8:27: error: $.operations[0].attempts[0].comit_state: "
                    + "unknown field (did you mean commit_state?)\n");
            switch (format) {
                case "json" -> assertThat(new ObjectMapper().readTree(r.out()).get("error").get("code").asInt()).isEqualTo(65);
                case "text" -> assertThat(r.out()).isEmpty();
                case "sarif" -> assertThat(new ObjectMapper().readTree(r.out()).get("runs").get(0).get("invocations").get(0)
                        .get("executionSuccessful").asBoolean()).isFalse();
                case "github" -> assertThat(r.out()).isEqualTo("::error file=" + BAD + ",line=8,col=27,"
                        + "title=retry-audit%3A input rejected::$.operations[0].attempts[0].comit_state: unknown field "
                        + "(did you mean commit_state?)\nretry-audit: input rejected (exit 65); no audit ran\n");
                default -> throw new AssertionError(format);
            }
        }
    }

    @Test
    void aMissingInputIsAnUnsuccessfulSarifRun() throws IOException {
        CliRunner.Result r = CliRunner.run("audit", "--format", "sarif", tmp.resolve("none.json").toString());
        assertThat(r.exit()).isEqualTo(66);
        JsonNode invocation = new ObjectMapper().readTree(r.out()).get("runs").get(0).get("invocations").get(0);
        assertThat(invocation.get("exitCode").asInt()).isEqualTo(66);
        assertThat(invocation.get("toolExecutionNotifications").get(0).get("message").get("text").asText())
                .isEqualTo("no such file");
    }

    @Test
    void aBaselineSuppressesTheFindingsItHolds() throws IOException {
        Path baseline = tmp.resolve("baseline.json");
        assertThat(CliRunner.run("audit", "--output", baseline.toString(), GAPS).exit()).isEqualTo(2);

        CliRunner.Result json = CliRunner.run("audit", "--baseline", baseline.toString(), GAPS, REASONS);
        assertThat(json.exit()).as(json.err()).isEqualTo(2);
        JsonNode report = new ObjectMapper().readTree(json.out());
        assertThat(report.get("findings")).hasSize(3);
        assertThat(report.get("findings").findValuesAsText("source")).containsOnly(REASONS);
        assertThat(report.get("summary").get("findings").get("error").asInt()).isEqualTo(2);
        assertThat(report.get("baseline").get("source").asText()).isEqualTo(baseline.toString());
        assertThat(report.get("baseline").get("suppressed").asInt()).isEqualTo(3);

        CliRunner.Result all = CliRunner.run("audit", "--format", "text", "--baseline", baseline.toString(), GAPS);
        assertThat(all.exit()).isZero();
        assertThat(all.out()).isEqualTo("no findings\nretry-audit: 2 operations, 4 attempts, 2 retries; 0 errors, "
                + "0 warnings, 0 notes; 3 findings suppressed by the baseline " + baseline + "; passed (--fail-on error)\n");
    }

    @Test
    void aReportWithoutBaselineHasNoBaselineField() throws IOException {
        JsonNode report = new ObjectMapper().readTree(CliRunner.run("audit", GAPS).out());
        assertThat(report.has("baseline")).isFalse();
    }

    @Test
    void aMissingBaselineExits66() {
        CliRunner.Result r = CliRunner.run("audit", "--baseline", tmp.resolve("old.json").toString(), GAPS);
        assertThat(r.exit()).isEqualTo(66);
        assertThat(r.err()).isEqualTo(tmp.resolve("old.json") + ": error: no such file\n");
    }

    @Test
    void aMalformedBaselineExits65WithItsPlace() throws IOException {
        Path bad = tmp.resolve("old.json");
        Files.writeString(bad, "{\"version\": 1,\n  \"findings\": [{\"rule\": \"a/b\", \"fingerprint\": 7}]}",
                StandardCharsets.UTF_8);
        CliRunner.Result r = CliRunner.run("audit", "--format", "text", "--baseline", bad.toString(), GAPS);
        assertThat(r.exit()).isEqualTo(65);
        assertThat(r.err()).isEqualTo(bad + ":2:47: error: $.findings[0].fingerprint: expected a string, found an integer\n");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void theBaselineCannotBeStdin() {
        CliRunner.Result r = CliRunner.run("audit", "--baseline", "-", GAPS);
        assertThat(r.exit()).isEqualTo(64);
        assertThat(r.err()).contains("--baseline reads a report file, not standard input");
    }

    @Test
    void fingerprintsSurviveLinesMoving() throws IOException {
        String before = Files.readString(Path.of(GAPS));
        List<String> lines = before.lines().toList();
        String moved = "\n\n" + lines.get(2) + "\n\n" + lines.get(0) + "\n" + lines.get(3) + "\n\n\n" + lines.get(1) + "\n";
        JsonNode a = new ObjectMapper().readTree(CliRunner.runWithStdin(before, "audit").out()).get("findings");
        JsonNode b = new ObjectMapper().readTree(CliRunner.runWithStdin(moved, "audit").out()).get("findings");
        assertThat(a.findValuesAsText("line")).isNotEqualTo(b.findValuesAsText("line"));
        assertThat(b.findValuesAsText("fingerprint")).containsExactlyInAnyOrderElementsOf(a.findValuesAsText("fingerprint"))
                .hasSize(3);
    }

    @Test
    void helpListsTheReportOptions() {
        String help = CliRunner.run("audit", "--help").out();
        assertThat(help).contains("--format=FORMAT", "json, text, sarif,", "github, html", "--baseline=REPORT",
                "--color=WHEN", "auto, always, never", "NO_COLOR");
    }
}

package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code probe --suite}: the scorecard of a client that never calls lists every scenario as not tested and fails
 * unless that is allowed (and even then, since nothing was honoured); options a suite sets itself are refused.
 */
class ProbeSuiteCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aClientThatNeverCallsFailsEveryScenarioAsNotTested() throws Exception {
        CliRunner.Result r = CliRunner.run("probe", "--suite", "writes", "--scorecard", "json", "--", "sh", "-c", "exit 3");

        assertThat(r.exit()).isEqualTo(2);
        JsonNode card = JSON.readTree(r.out());
        assertThat(SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(SchemaCommand.text("scorecard")).validate(r.out(), com.networknt.schema.InputFormat.JSON))
                .isEmpty();
        assertThat(card.get("suite").asText()).isEqualTo("writes");
        assertThat(card.get("passed").asBoolean()).isFalse();
        assertThat(card.get("totals").get("not_tested").asInt()).isEqualTo(3);
        assertThat(card.get("scenarios")).allSatisfy(row -> {
            assertThat(row.get("verdict").asText()).isEqualTo("not_tested");
            assertThat(row.get("rule").asText()).isEqualTo("probe/not-tested");
            assertThat(row.get("finding").asText()).startsWith("nothing was tested: the client exited with code 3 before");
            assertThat(row.get("fails").asBoolean()).isTrue();
        });
        assertThat(r.err()).contains("retry-audit: probe: [1/3] held-write-dedupe: ")
                .contains("retry-audit: probe: suite writes: 3 scenarios: 0 honoured, 0 violated, 3 not tested (failing);"
                        + " FAILED");
    }

    @Test
    void allowingUntestedRowsDoesNotPassAScorecardThatTestedNothing() {
        CliRunner.Result r = CliRunner.run("probe", "--suite", "writes", "--allow-not-tested", "--", "sh", "-c", "exit 0");

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.out()).contains("3 scenarios: 0 honoured, 0 violated, 3 not tested (allowed); FAILED")
                .doesNotContain("(x)");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--suite|grpc|invalid value for option '--suite': expected one of http, writes, otlp",
        "--status|503|--status cannot be used with --suite",
        "--format|sarif|--format cannot be used with --suite: each scenario of the suite sets its own (the scorecard's"
                + " format is --scorecard)",
        "--scorecard|yaml|invalid value for option '--scorecard': expected one of text, json, markdown, sarif, junit"})
    void optionsASuiteDoesNotTakeAreUsageErrors(String option, String value, String message) {
        CliRunner.Result r = option.equals("--suite")
                ? CliRunner.run("probe", option, value, "--", "true")
                : CliRunner.run("probe", "--suite", "http", option, value, "--", "true");

        assertThat(r.exit()).isEqualTo(64);
        assertThat(r.err()).contains(message);
        assertThat(r.out()).isEmpty();
    }

    @Test
    void aSuiteNeedsACommandAndTheScorecardNeedsASuite() {
        assertThat(CliRunner.run("probe", "--suite", "http").err()).contains("--suite needs a COMMAND");
        CliRunner.Result r = CliRunner.run("probe", "--scorecard", "junit", "--", "true");
        assertThat(r.exit()).isEqualTo(64);
        assertThat(r.err()).contains("--scorecard and --allow-not-tested need --suite");
    }
}

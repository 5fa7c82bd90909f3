package dev.retryaudit.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The probe's verdicts, {@code probe/not-tested} and {@code probe/not-followed}: documented by {@code explain},
 * described in a probe run's SARIF, refused by {@code audit}'s {@code --enable}/{@code --disable} (no audit runs
 * them) and by {@code probe}'s {@code --disable} (a probe run must never pass silently).
 */
class ProbeVerdictRulesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path OPERATIONS = Path.of("src/test/resources/rules/budget/max-attempts/fail-basic/input.jsonl");

    @ParameterizedTest
    @CsvSource({"probe/not-tested", "probe/not-followed"})
    void explainPrintsTheDocumentation(String id) throws Exception {
        CliRunner.Result r = CliRunner.run("explain", id);
        assertThat(r.exit()).isZero();
        assertThat(r.out()).isEqualTo(Files.readString(Path.of("src/main/resources/rules/" + id + ".md")))
                .contains("Reported by `retry-audit probe` only");
    }

    @ParameterizedTest
    @CsvSource({"--enable, probe/not-tested", "--disable, probe/not-followed", "--enable, probe", "--disable, probe"})
    void auditRefusesToNameAProbeVerdict(String option, String name) {
        CliRunner.Result r = CliRunner.run("audit", option, name, OPERATIONS.toString());
        assertThat(r.exit()).isEqualTo(64);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith("retry-audit: error: " + name + " is a verdict of 'retry-audit probe', not a rule"
                + " over traces: no audit runs it, so option '" + option + "' cannot name it\n");
    }

    @Test
    void anAuditNeverListsTheProbeVerdictsAmongItsRules() throws Exception {
        CliRunner.Result r = CliRunner.run("audit", "--format", "sarif", OPERATIONS.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(ruleIds(JSON.readTree(r.out()))).isNotEmpty().noneMatch(id -> id.startsWith("probe/"));
    }

    @ParameterizedTest
    @CsvSource({"probe/not-tested", "probe/not-followed", "probe"})
    void probeRefusesToDisableAVerdict(String name) {
        CliRunner.Result r = CliRunner.run("probe", "--disable", name, "--timeout", "5", "--", "true");
        assertThat(r.exit()).isEqualTo(64);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith("retry-audit: error: " + name + " cannot be disabled (option '--disable'): a probe"
                + " run that tested nothing, or whose waits did not follow Retry-After, must never pass\n");
    }

    @Test
    void probeAcceptsEnablingAVerdictWhichIsAlwaysOn() throws Exception {
        CliRunner.Result r = CliRunner.run("probe", "--enable", "probe/not-tested", "--format", "sarif", "--timeout",
                "5", "--", "true");
        assertThat(r.exit()).isEqualTo(2);
        JsonNode sarif = JSON.readTree(r.out());
        JsonNode run = sarif.get("runs").get(0);
        assertThat(run.get("results").get(0).get("ruleId").asText()).isEqualTo("probe/not-tested");
        assertThat(ruleIds(sarif)).contains("probe/not-tested", "probe/not-followed");
        for (JsonNode rule : run.get("tool").get("driver").get("rules")) {
            if (rule.get("id").asText().startsWith("probe/")) {
                assertThat(rule.get("help").get("markdown").asText())
                        .startsWith("# " + rule.get("id").asText() + "\n");
            }
        }
    }

    @Test
    void anUnknownProbeNameStillGetsSuggestions() {
        CliRunner.Result r = CliRunner.run("probe", "--disable", "probe/not-tsted", "--", "true");
        assertThat(r.exit()).isEqualTo(64);
        assertThat(r.err()).contains("unknown rule or family: probe/not-tsted (did you mean probe/not-tested?)");
    }

    private static List<String> ruleIds(JsonNode sarif) {
        List<String> ids = new ArrayList<>();
        sarif.get("runs").get(0).get("tool").get("driver").get("rules").forEach(n -> ids.add(n.get("id").asText()));
        return ids;
    }
}

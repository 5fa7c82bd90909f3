package dev.retryaudit.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.retryaudit.report.RuleList;
import dev.retryaudit.rules.RuleInfo;
import dev.retryaudit.rules.engine.RuleRegistry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code retry-audit rules}: every registered rule, in registry order, as an aligned table or a JSON array. */
class RulesCommandTest {
    private static final List<RuleInfo> RULES = RuleRegistry.catalogue();

    @Test
    void textIsAnAlignedTableInRegistryOrder() {
        CliRunner.Result r = CliRunner.run("rules");
        assertThat(r.exit()).isZero();
        assertThat(r.err()).isEmpty();
        List<String> lines = r.out().lines().toList();
        assertThat(lines).hasSize(RULES.size() + 1);
        assertThat(lines.get(0)).matches("ID +FAMILY +SEVERITY +SUMMARY");
        int familyAt = lines.get(0).indexOf("FAMILY");
        int severityAt = lines.get(0).indexOf("SEVERITY");
        int summaryAt = lines.get(0).indexOf("SUMMARY");
        for (int i = 0; i < RULES.size(); i++) {
            RuleInfo info = RULES.get(i);
            String line = lines.get(i + 1);
            assertThat(line).startsWith(info.id() + " ").doesNotEndWith(" ");
            assertThat(line.substring(familyAt)).startsWith(info.family() + " ");
            assertThat(line.substring(severityAt)).startsWith(info.severity().id() + " ");
            assertThat(line.substring(summaryAt)).isEqualTo(
                    (info.family().equals("probe") ? RuleList.PROBE_ONLY : "") + info.summary());
        }
        assertThat(r.out()).endsWith("\n").containsPattern(
                "(?m)^trace/clock-order +trace +note +attempt n\\+1 started before attempt n started: sort by attempt_id");
    }

    @Test
    void jsonIsAnArrayOfObjectsInRegistryOrder() throws Exception {
        CliRunner.Result r = CliRunner.run("rules", "--format", "json");
        assertThat(r.exit()).isZero();
        List<Map<String, String>> rules = new ObjectMapper().readValue(r.out(), new TypeReference<>() { });
        assertThat(rules).hasSize(RULES.size());
        for (int i = 0; i < RULES.size(); i++) {
            RuleInfo info = RULES.get(i);
            assertThat(rules.get(i)).containsExactly(Map.entry("id", info.id()), Map.entry("family", info.family()),
                    Map.entry("severity", info.severity().id()), Map.entry("summary", info.summary()),
                    Map.entry("runs", info.family().equals("probe") ? "probe" : "audit"));
        }
        assertThat(r.out()).startsWith("[\n  {\n    \"id\": \"" + RULES.get(0).id() + "\",\n").endsWith("}\n]\n");
    }

    @Test
    void theBuiltInRulesComeFirstThenTheProbeVerdictsMarkedProbeOnly() {
        List<String> lines = CliRunner.run("rules").out().lines().toList();
        assertThat(lines.subList(1, RuleRegistry.all().size() + 1)).noneMatch(l -> l.contains(RuleList.PROBE_ONLY));
        List<String> probe = lines.subList(RuleRegistry.all().size() + 1, lines.size());
        assertThat(probe).hasSize(2);
        assertThat(probe.get(0)).matches(
                "probe/not-tested +probe +error +\\(probe only\\) the probe run tested nothing: the reason says why");
        assertThat(probe.get(1)).matches("probe/not-followed +probe +error +\\(probe only\\) retries waited long enough"
                + " but did not follow the delays Retry-After asked for");
    }

    @Test
    void theOutputIsTheSameOnEveryRun() {
        assertThat(CliRunner.run("rules", "--format", "json").out()).isEqualTo(CliRunner.run("rules", "--format", "json").out());
        assertThat(CliRunner.run("rules").out()).isEqualTo(CliRunner.run("rules", "--format", "text").out());
    }

    @Test
    void anUnknownFormatIsAUsageError() {
        CliRunner.Result r = CliRunner.run("rules", "--format", "xml");
        assertThat(r.exit()).isEqualTo(64);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("retry-audit: error: invalid value for option '--format': expected one of text, json\n"
                + "Try 'retry-audit rules --help'\n");
    }

    @Test
    void anExtraArgumentIsAUsageError() {
        assertThat(CliRunner.run("rules", "budget").exit()).isEqualTo(64);
    }

    @Test
    void theHelpNamesTheCommandsAndTheFormats() {
        assertThat(CliRunner.run("--help").out()).contains("rules", "explain");
        assertThat(CliRunner.run("rules", "--help").out()).contains("--format=FORMAT", "text, json", "Exit codes:");
    }
}

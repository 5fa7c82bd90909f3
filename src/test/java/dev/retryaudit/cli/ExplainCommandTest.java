package dev.retryaudit.cli;

import dev.retryaudit.rules.Rule;
import dev.retryaudit.rules.RuleInfo;
import dev.retryaudit.rules.engine.RuleRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code retry-audit explain}: a rule's documentation exactly as shipped, a family's rules, and did-you-mean for the rest. */
class ExplainCommandTest {
    @TestFactory
    Stream<DynamicTest> everyRulePrintsItsMarkdownResource() {
        return RuleRegistry.catalogue().stream().map(info -> DynamicTest.dynamicTest(info.id(), () -> {
            Path doc = Path.of("src/main/resources/rules", info.family(), info.name() + ".md");
            CliRunner.Result r = CliRunner.run("explain", info.id());
            assertThat(r.exit()).isZero();
            assertThat(r.err()).isEmpty();
            assertThat(r.out()).isEqualTo(Files.readString(doc)).startsWith("# " + info.id() + "\n");
        }));
    }

    @Test
    void aFamilyListsItsRules() {
        CliRunner.Result r = CliRunner.run("explain", "trace");
        assertThat(r.exit()).isZero();
        assertThat(r.out().lines().skip(1).map(l -> l.substring(0, l.indexOf(' '))).toList())
                .containsExactlyElementsOf(RuleRegistry.all().stream().map(Rule::info)
                        .filter(i -> i.family().equals("trace")).map(RuleInfo::id).toList());
        assertThat(r.out()).startsWith("ID ");
    }

    @Test
    void theProbeFamilyListsTheProbeVerdictsMarkedProbeOnly() {
        CliRunner.Result r = CliRunner.run("explain", "probe");
        assertThat(r.exit()).isZero();
        assertThat(r.out().lines().skip(1).toList()).hasSize(2)
                .allMatch(l -> l.contains(" probe ") && l.contains("(probe only) "));
        assertThat(CliRunner.run("explain", "probe/not-test").err()).contains("(did you mean probe/not-tested");
    }

    @Test
    void anUnknownRuleNamesTheClosestIds() {
        CliRunner.Result r = CliRunner.run("explain", "trace/overlapp");
        assertThat(r.exit()).isEqualTo(64);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("retry-audit: error: unknown rule or family: trace/overlapp (did you mean trace/overlap?)\n"
                + "Try 'retry-audit explain --help'\n");
        assertThat(CliRunner.run("explain", "trac").err()).contains("(did you mean trace");
    }

    @Test
    void aNameWithNothingCloseSaysWhereTheListIs() {
        CliRunner.Result r = CliRunner.run("explain", "zzzzzzzz\u001b[31m");
        assertThat(r.exit()).isEqualTo(64);
        assertThat(r.err()).startsWith("retry-audit: error: unknown rule or family: zzzzzzzz\\e[31m; 'retry-audit rules' lists them\n")
                .doesNotContain("\u001b");
    }

    @Test
    void theRuleIsRequired() {
        CliRunner.Result r = CliRunner.run("explain");
        assertThat(r.exit()).isEqualTo(64);
        assertThat(r.err()).contains("Missing required parameter: 'RULE'");
    }
}

package dev.retryaudit.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.model.Policy;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Shows that a fixture's policy.json is read and changes what its rule finds. */
class PolicyFixturesTest {
    @Test
    void aToolEffectFromThePolicySilencesAWriteRule() throws Exception {
        RuleFixtures.Case c = caseNamed("trace/overlap", "pass-policy-tool-is-read");
        assertThat(RuleFixtures.run(c, Policy.DEFAULTS)).as("the same input under the defaults")
                .containsExactly("input.jsonl:2:1 warning pay-1 2");
        assertThat(RuleFixtures.run(c, PolicyFixtures.load(c.policy()))).isEmpty();
    }

    @Test
    void aSeverityFromThePolicyReachesTheFindings() throws Exception {
        RuleFixtures.Case c = caseNamed("trace/clock-order", "fail-policy-severity");
        assertThat(RuleFixtures.run(c, Policy.DEFAULTS)).containsExactly("input.jsonl:2:1 note op-1 2");
        assertThat(RuleFixtures.run(c, PolicyFixtures.load(c.policy()))).containsExactly("input.jsonl:2:1 error op-1 2");
    }

    @Test
    void noPolicyFileMeansTheDefaults() throws Exception {
        assertThat(PolicyFixtures.load(null)).isSameAs(Policy.DEFAULTS);
    }

    private static RuleFixtures.Case caseNamed(String rule, String name) {
        List<RuleFixtures.Case> cases = RuleFixtures.cases(rule);
        return cases.stream().filter(c -> c.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no fixture " + rule + "/" + name));
    }
}

package dev.retryaudit.rules;

import dev.retryaudit.model.Finding;
import dev.retryaudit.model.Policy;
import dev.retryaudit.rules.engine.RuleRegistry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Runs every rule fixture: each case's findings of its rule must be exactly those in expected.txt,
 * with the messages and evidence of expected-findings.txt ({@code -Dgolden.update=true} rewrites
 * the latter after an intended change; review the diff).
 */
class RuleFixturesTest {
    private static final boolean UPDATE = Boolean.getBoolean("golden.update");

    @TestFactory
    Stream<DynamicTest> everyFixture() {
        return RuleRegistry.all().stream()
                .flatMap(r -> RuleFixtures.cases(r.info().id()).stream())
                .map(c -> DynamicTest.dynamicTest(c.ruleId() + " " + c.name(), () -> {
                    Policy policy = PolicyFixtures.load(c.policy(), c.tools());
                    List<Finding> findings = RuleFixtures.findings(c, policy);
                    assertThat(findings.stream().map(RuleFixtures::line).toList())
                            .as("findings of %s in %s", c.ruleId(), c.dir())
                            .containsExactlyElementsOf(c.expected());
                    Path golden = c.dir().resolve(RuleFixtures.FINDINGS);
                    String full = RuleFixtures.full(findings);
                    if (UPDATE) {
                        Files.writeString(golden, full, StandardCharsets.UTF_8);
                    } else if (!Files.exists(golden)) {
                        fail("no " + golden + "; run with -Dgolden.update=true to write it, then review it");
                    }
                    assertThat(full).as("messages and evidence of %s in %s", c.ruleId(), golden)
                            .isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
                }));
    }
}

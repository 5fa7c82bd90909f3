package dev.retryaudit.rules;

import dev.retryaudit.model.Policy;
import dev.retryaudit.rules.engine.RuleRegistry;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import static org.assertj.core.api.Assertions.assertThat;

/** Runs every rule fixture: each case's findings of its rule must be exactly those in expected.txt. */
class RuleFixturesTest {
    @TestFactory
    Stream<DynamicTest> everyFixture() {
        return RuleRegistry.all().stream()
                .flatMap(r -> RuleFixtures.cases(r.info().id()).stream())
                .map(c -> DynamicTest.dynamicTest(c.ruleId() + " " + c.name(), () -> {
                    Policy policy = PolicyFixtures.load(c.policy());
                    List<String> found = RuleFixtures.run(c, policy);
                    assertThat(found).as("findings of %s in %s", c.ruleId(), c.dir())
                            .containsExactlyElementsOf(c.expected());
                }));
    }
}

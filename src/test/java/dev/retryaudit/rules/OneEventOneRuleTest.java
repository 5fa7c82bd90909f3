package dev.retryaudit.rules;

import dev.retryaudit.input.InputSet;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Policy;
import dev.retryaudit.rules.engine.Engine;
import dev.retryaudit.rules.engine.RuleRegistry;
import dev.retryaudit.rules.engine.RuleSelection;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the timeout-replay and effect-verification families together over scenarios where their
 * triggers overlap, and demands exactly the listed findings: each unsafe event once, by one rule.
 */
class OneEventOneRuleTest {
    private static final Path DIR = Path.of("src/test/resources/one-event-one-rule");

    @Test
    void eachUnsafeEventIsReportedByOneRule() throws Exception {
        List<String> families = new ArrayList<>(RuleRegistry.families());
        RuleSelection selection = RuleSelection.of(Policy.DEFAULTS, List.of("timeout-replay", "effect-verification"),
                families);
        Engine engine = new Engine(Policy.DEFAULTS, selection);
        new InputSet(InputFormat.AUTO, Limits.DEFAULTS).readAll(
                List.of(new InputSet.Source("input.jsonl", DIR.resolve("input.jsonl"))),
                new ByteArrayInputStream(new byte[0]), engine::accept);
        List<String> found = engine.finish().stream()
                .map(f -> f.operation() + " " + (f.attempt() == null ? "-" : f.attempt()) + " " + f.rule())
                .sorted().toList();
        List<String> expected = Files.readAllLines(DIR.resolve("expected.txt")).stream()
                .filter(l -> !l.isBlank() && !l.startsWith("#")).sorted().toList();
        assertThat(found).containsExactlyElementsOf(expected);
    }
}

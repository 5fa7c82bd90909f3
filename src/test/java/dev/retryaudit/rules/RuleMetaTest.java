package dev.retryaudit.rules;

import dev.retryaudit.rules.engine.RuleDocs;
import dev.retryaudit.rules.engine.RuleRegistry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

/** Checks every registered rule's id, documentation and fixtures, and reports all problems at once. */
class RuleMetaTest {
    @Test
    void everyRuleIsComplete() {
        List<String> problems = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (Rule r : RuleRegistry.all()) {
            RuleInfo info = r.info();
            String id = info.id();
            if (!ids.add(id)) {
                problems.add(id + ": registered twice");
            }
            if (r.getClass().getPackageName().lastIndexOf('.') < 0
                    || !r.getClass().getPackageName().endsWith("." + info.family().replace("-", ""))) {
                problems.add(id + ": class " + r.getClass().getName() + " is not in the package of its family");
            }
            String doc = RuleDocs.markdown(info);
            if (doc == null || doc.isBlank()) {
                problems.add(id + ": no documentation at " + RuleDocs.resource(info));
            }
            List<RuleFixtures.Case> cases = RuleFixtures.cases(id);
            boolean failing = cases.stream().anyMatch(c -> c.name().startsWith("fail") && !c.expected().isEmpty());
            boolean passing = cases.stream().anyMatch(c -> c.name().startsWith("pass") && c.expected().isEmpty());
            if (!failing || !passing) {
                problems.add(id + ": needs a fail-* case with expected findings and a pass-* case without");
            }
            for (RuleFixtures.Case c : cases) {
                if (!c.name().startsWith("fail-") && !c.name().startsWith("pass-")) {
                    problems.add(id + ": case " + c.name() + " must be named fail-* or pass-*");
                } else if (c.name().startsWith("pass-") != c.expected().isEmpty()) {
                    problems.add(id + ": case " + c.name() + " contradicts its name");
                }
            }
        }
        assertThat(problems).isEmpty();
    }
}

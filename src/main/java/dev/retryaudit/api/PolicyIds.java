package dev.retryaudit.api;

import dev.retryaudit.config.RuleIds;
import dev.retryaudit.rules.Rule;
import dev.retryaudit.rules.engine.RuleRegistry;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.stream.Collectors;

/** The rule ids a policy document of an auditor may configure: those of its catalogue, the probe's verdicts refused. */
final class PolicyIds {
    private PolicyIds() {
    }

    static RuleIds of(Collection<Rule> catalogue) {
        return RuleRegistry.policyIds(catalogue.stream().map(r -> r.info().id()).collect(
                Collectors.toCollection(LinkedHashSet::new)));
    }
}

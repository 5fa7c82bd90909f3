package dev.retryaudit.rules;

import dev.retryaudit.config.PolicyReader;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Policy;
import dev.retryaudit.rules.engine.RuleRegistry;
import java.nio.file.Path;

/** Loads a fixture's policy.json with the real policy reader; without one, the defaults. */
final class PolicyFixtures {
    private PolicyFixtures() {
    }

    static Policy load(Path policy) throws InputException {
        if (policy == null) {
            return Policy.DEFAULTS;
        }
        return PolicyReader.read(policy, RuleRegistry.policyIds(), Limits.DEFAULTS);
    }
}

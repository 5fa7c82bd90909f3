package dev.retryaudit.rules;

import dev.retryaudit.model.Policy;
import java.nio.file.Path;

/** Loads a fixture's policy.json; without one, the defaults. */
final class PolicyFixtures {
    private PolicyFixtures() {
    }

    static Policy load(Path policy) {
        if (policy == null) {
            return Policy.DEFAULTS;
        }
        throw new IllegalStateException("policy fixtures need the policy reader: " + policy);
    }
}

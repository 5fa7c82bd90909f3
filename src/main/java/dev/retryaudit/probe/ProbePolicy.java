package dev.retryaudit.probe;

import dev.retryaudit.model.Policy;

/**
 * The policy a probe run audits with: the user's, plus an entry for the client (the tool of the
 * recorded trace) that allows the attempts the scenario needs (its failures and one success) and
 * says whether the fixture deduplicates by key. An entry the user's policy already has for the
 * client wins.
 */
public final class ProbePolicy {
    private ProbePolicy() {
    }

    public static Policy fit(Policy policy, Scenario scenario, String tool) {
        if (policy.tools().contains(tool)) {
            return policy;
        }
        return policy.toBuilder().tool(tool, null, Math.max(policy.maxAttempts(), scenario.failures() + 1),
                scenario.dedupe()).build();
    }
}

package dev.retryaudit.rules;

import dev.retryaudit.config.PolicyReader;
import dev.retryaudit.config.ToolsReader;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Policy;
import dev.retryaudit.rules.engine.RuleRegistry;
import java.nio.file.Path;

/** Loads a fixture's policy.json with the real policy reader (without one, the defaults), and its tools.json. */
final class PolicyFixtures {
    private PolicyFixtures() {
    }

    static Policy load(Path policy) throws InputException {
        if (policy == null) {
            return Policy.DEFAULTS;
        }
        return PolicyReader.read(policy, RuleRegistry.policyIds(), Limits.DEFAULTS);
    }

    /** The policy of {@link #load(Path)} with the tools of {@code tools} ({@code --tools}), when there is one. */
    static Policy load(Path policy, Path tools) throws InputException {
        Policy p = load(policy);
        return tools == null ? p : ToolsReader.apply(p, tools, Limits.DEFAULTS);
    }
}

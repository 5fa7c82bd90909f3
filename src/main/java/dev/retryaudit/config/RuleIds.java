package dev.retryaudit.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The rule ids a policy's {@code rules} may configure, and the ids it knows but must refuse, each with
 * the reason the reader gives (a rule that only another command runs, for example). Both keep their
 * order, which decides the order of "did you mean" suggestions.
 */
public record RuleIds(Set<String> configurable, Map<String, String> refused) {
    public RuleIds {
        configurable = Collections.unmodifiableSet(new LinkedHashSet<>(configurable));
        refused = Collections.unmodifiableMap(new LinkedHashMap<>(refused));
    }

    /** Ids to configure, none refused. */
    public static RuleIds of(Set<String> configurable) {
        return new RuleIds(configurable, Map.of());
    }

    /** Why a policy cannot configure {@code id}, or null when it is no refused id. */
    String refusal(String id) {
        return refused.get(Objects.requireNonNull(id, "id"));
    }
}

package dev.retryaudit.rules.engine;

import dev.retryaudit.model.Policy;
import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.Rule;
import dev.retryaudit.rules.RuleInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which rules run and at what severity: the registry's defaults, then the policy's {@code rules},
 * then {@code --disable} and {@code --enable} (a family first, then single rules, so
 * {@code --disable budget --enable budget/deadline} keeps just that rule of the family).
 */
public record RuleSelection(List<Rule> enabled, Map<String, Severity> severities) {
    public RuleSelection {
        enabled = List.copyOf(enabled);
        severities = Map.copyOf(severities);
    }

    /** Every rule on at its default severity. */
    public static RuleSelection defaults() {
        return of(Policy.DEFAULTS, List.of(), List.of());
    }

    /**
     * Applies policy and flags. Each name in {@code enable}/{@code disable} must be a rule id or a
     * family (the audit settings check them); an unknown one changes nothing.
     */
    public static RuleSelection of(Policy policy, List<String> enable, List<String> disable) {
        return of(RuleRegistry.all(), policy, enable, disable);
    }

    /** As {@link #of(Policy, List, List)} over another catalogue, for example the built-in rules plus custom ones. */
    public static RuleSelection of(List<? extends Rule> catalogue, Policy policy, List<String> enable,
            List<String> disable) {
        Map<String, Boolean> on = new LinkedHashMap<>();
        Map<String, Severity> severities = new LinkedHashMap<>();
        for (Rule r : catalogue) {
            String id = r.info().id();
            Boolean enabled = policy.ruleEnabled(id);
            Severity severity = policy.ruleSeverity(id);
            on.put(id, enabled == null || enabled);
            severities.put(id, severity != null ? severity : r.info().severity());
        }
        for (boolean families : new boolean[] {true, false}) {
            for (String name : disable) {
                apply(catalogue, on, name, families, false);
            }
            for (String name : enable) {
                apply(catalogue, on, name, families, true);
            }
        }
        List<Rule> enabled = new ArrayList<>();
        for (Rule r : catalogue) {
            if (on.get(r.info().id())) {
                enabled.add(r);
            }
        }
        return new RuleSelection(enabled, severities);
    }

    /** The severity findings of {@code rule} get: its entry in {@code severities}, else its default. */
    public Severity severityOf(Rule rule) {
        return severities.getOrDefault(rule.info().id(), rule.info().severity());
    }

    /** The enabled rules' metadata, each at the severity its findings get: what reports list. */
    public List<RuleInfo> configured() {
        return enabled.stream().map(r -> new RuleInfo(r.info().id(), severityOf(r), r.info().summary())).toList();
    }

    /** Whether the policy or flags changed this rule's severity from its default. */
    public boolean overridden(Rule rule) {
        return severityOf(rule) != rule.info().severity();
    }

    private static void apply(List<? extends Rule> catalogue, Map<String, Boolean> on, String name, boolean families,
            boolean value) {
        boolean isFamily = !name.contains("/");
        if (isFamily != families) {
            return;
        }
        for (Rule r : catalogue) {
            if (isFamily ? r.info().family().equals(name) : r.info().id().equals(name)) {
                on.put(r.info().id(), value);
            }
        }
    }
}

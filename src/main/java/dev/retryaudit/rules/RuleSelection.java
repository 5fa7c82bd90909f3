package dev.retryaudit.rules;

import dev.retryaudit.model.Policy;
import dev.retryaudit.model.Severity;
import dev.retryaudit.text.Suggestions;
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
     * family ({@link #isKnown}); the caller reports unknown ones as usage errors.
     */
    public static RuleSelection of(Policy policy, List<String> enable, List<String> disable) {
        Map<String, Boolean> on = new LinkedHashMap<>();
        Map<String, Severity> severities = new LinkedHashMap<>();
        for (Rule r : RuleRegistry.all()) {
            String id = r.info().id();
            Policy.RuleSetting s = policy.rules().get(id);
            on.put(id, s == null || s.enabled() == null || s.enabled());
            severities.put(id, s != null && s.severity() != null ? s.severity() : r.info().severity());
        }
        for (boolean families : new boolean[] {true, false}) {
            for (String name : disable) {
                apply(on, name, families, false);
            }
            for (String name : enable) {
                apply(on, name, families, true);
            }
        }
        List<Rule> enabled = new ArrayList<>();
        for (Rule r : RuleRegistry.all()) {
            if (on.get(r.info().id())) {
                enabled.add(r);
            }
        }
        return new RuleSelection(enabled, severities);
    }

    /** Whether {@code name} is a rule id or a family. */
    public static boolean isKnown(String name) {
        return RuleRegistry.byId(name) != null || RuleRegistry.families().contains(name);
    }

    /**
     * Why {@code enable}/{@code disable} cannot be applied (an unknown name, with the closest known ones; a name
     * in both), naming them as {@code enableName}/{@code disableName}; null when they can.
     */
    public static String problem(List<String> enable, List<String> disable, String enableName, String disableName) {
        String unknown = unknown(enable, enableName);
        if (unknown == null) {
            unknown = unknown(disable, disableName);
        }
        if (unknown != null) {
            return unknown;
        }
        return enable.stream().filter(disable::contains).findFirst()
                .map(both -> "the same rule or family is both enabled and disabled: " + both).orElse(null);
    }

    private static String unknown(List<String> names, String what) {
        for (String n : names) {
            if (!isKnown(n)) {
                List<String> close = Suggestions.closestAll(n, RuleRegistry.names(), 3);
                return "unknown rule or family for " + what
                        + (close.isEmpty() ? "" : " (did you mean " + String.join(", ", close) + "?)");
            }
        }
        return null;
    }

    /** The severity findings of {@code rule} get. */
    public Severity severityOf(Rule rule) {
        return severities.get(rule.info().id());
    }

    /** Whether the policy or flags changed this rule's severity from its default. */
    public boolean overridden(Rule rule) {
        return severityOf(rule) != rule.info().severity();
    }

    private static void apply(Map<String, Boolean> on, String name, boolean families, boolean value) {
        boolean isFamily = !name.contains("/");
        if (isFamily != families) {
            return;
        }
        for (Rule r : RuleRegistry.all()) {
            if (isFamily ? r.info().family().equals(name) : r.info().id().equals(name)) {
                on.put(r.info().id(), value);
            }
        }
    }
}

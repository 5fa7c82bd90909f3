package dev.retryaudit.rules.engine;

import dev.retryaudit.model.Policy;
import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.Rule;
import dev.retryaudit.rules.RuleInfo;
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
        return of(RuleRegistry.all(), policy, enable, disable);
    }

    /** As {@link #of(Policy, List, List)} over another catalogue, for example the built-in rules plus custom ones. */
    public static RuleSelection of(List<? extends Rule> catalogue, Policy policy, List<String> enable,
            List<String> disable) {
        Map<String, Boolean> on = new LinkedHashMap<>();
        Map<String, Severity> severities = new LinkedHashMap<>();
        for (Rule r : catalogue) {
            String id = r.info().id();
            Policy.RuleSetting s = policy.rules().get(id);
            on.put(id, s == null || s.enabled() == null || s.enabled());
            severities.put(id, s != null && s.severity() != null ? s.severity() : r.info().severity());
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

    /** Whether {@code name} is a rule id or a family. */
    public static boolean isKnown(String name) {
        return RuleRegistry.byId(name) != null || RuleRegistry.families().contains(name);
    }

    /**
     * Why {@code enable}/{@code disable} cannot be applied (an unknown name, with the closest known ones; a name
     * in both; a probe verdict on an audit, or disabled on a probe run), naming them as
     * {@code enableName}/{@code disableName}; null when they can. {@code probeRun} says whether they are a probe
     * run's: there the probe's verdicts ({@link ProbeCatalogue}) may be named in {@code enable}, where they change
     * nothing since they are always on.
     */
    public static String problem(List<String> enable, List<String> disable, String enableName, String disableName,
            boolean probeRun) {
        String probe = probeNames(enable, enableName, disable, disableName, probeRun);
        if (probe != null) {
            return probe;
        }
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

    /** Why a name of the probe's verdicts cannot be applied here, or null. */
    private static String probeNames(List<String> enable, String enableName, List<String> disable, String disableName,
            boolean probeRun) {
        for (String n : disable) {
            if (ProbeCatalogue.names(n)) {
                return probeRun ? n + " cannot be disabled (" + disableName + "): a probe run that tested nothing,"
                        + " or whose waits did not follow Retry-After, must never pass" : notOnAudit(n, disableName);
            }
        }
        for (String n : enable) {
            if (ProbeCatalogue.names(n) && !probeRun) {
                return notOnAudit(n, enableName);
            }
        }
        return null;
    }

    private static String notOnAudit(String name, String what) {
        return ProbeCatalogue.verdict(name) + ": no audit runs it, so " + what
                + " cannot name it";
    }

    private static String unknown(List<String> names, String what) {
        for (String n : names) {
            if (!isKnown(n) && !ProbeCatalogue.names(n)) {
                List<String> close = Suggestions.closestAll(n, RuleRegistry.names(), 3);
                return "unknown rule or family for " + what
                        + (close.isEmpty() ? "" : " (did you mean " + String.join(", ", close) + "?)");
            }
        }
        return null;
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

package dev.retryaudit.rules.engine;

import dev.retryaudit.config.RuleIds;
import dev.retryaudit.rules.Rule;
import dev.retryaudit.rules.RuleInfo;
import dev.retryaudit.rules.budget.Amplification;
import dev.retryaudit.rules.budget.Deadline;
import dev.retryaudit.rules.budget.MaxAttempts;
import dev.retryaudit.rules.budget.NoBackoff;
import dev.retryaudit.rules.budget.RetryRatio;
import dev.retryaudit.rules.effectverification.DuplicateCommit;
import dev.retryaudit.rules.effectverification.KeyChanged;
import dev.retryaudit.rules.effectverification.KeyReused;
import dev.retryaudit.rules.effectverification.MissingState;
import dev.retryaudit.rules.effectverification.RetryAfterCommit;
import dev.retryaudit.rules.effectverification.RetryAfterReject;
import dev.retryaudit.rules.effectverification.UntrustedState;
import dev.retryaudit.rules.effectverification.UnverifiedSuccess;
import dev.retryaudit.rules.retryafter.DoNotRetry;
import dev.retryaudit.rules.retryafter.Early;
import dev.retryaudit.rules.retryafter.Excessive;
import dev.retryaudit.rules.retryafter.Invalid;
import dev.retryaudit.rules.timeoutreplay.Keyless;
import dev.retryaudit.rules.timeoutreplay.RepeatedUnknown;
import dev.retryaudit.rules.timeoutreplay.Unreconciled;
import dev.retryaudit.rules.trace.AttemptSequence;
import dev.retryaudit.rules.trace.ClockOrder;
import dev.retryaudit.rules.trace.Overlap;
import dev.retryaudit.rules.trace.RetryReason;
import dev.retryaudit.rules.trace.SpanReuse;
import dev.retryaudit.rules.validationrepeat.Identical;
import dev.retryaudit.rules.validationrepeat.Loop;
import dev.retryaudit.rules.validationrepeat.Unverifiable;
import dev.retryaudit.text.Escaping;
import dev.retryaudit.text.Suggestions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;

/** The one explicit list of built-in rules, in catalogue order (docs/rules.md). */
public final class RuleRegistry {
    private static final List<Rule> ALL = List.of(
            new Early(),
            new Invalid(),
            new Excessive(),
            new DoNotRetry(),
            new Identical(),
            new Unverifiable(),
            new Loop(),
            new MaxAttempts(),
            new RetryRatio(),
            new Deadline(),
            new NoBackoff(),
            new Amplification(),
            new Unreconciled(),
            new RepeatedUnknown(),
            new Keyless(),
            new DuplicateCommit(),
            new RetryAfterCommit(),
            new RetryAfterReject(),
            new MissingState(),
            new UntrustedState(),
            new UnverifiedSuccess(),
            new KeyChanged(),
            new KeyReused(),
            new AttemptSequence(),
            new RetryReason(),
            new SpanReuse(),
            new ClockOrder(),
            new Overlap());

    private static final Map<String, Rule> BY_ID = index(ALL);

    /** The families no audit runs, registered as services of the module, in the order of their ids. */
    private static final List<ListedFamily> LISTED = listed();

    private RuleRegistry() {
    }

    public static List<Rule> all() {
        return ALL;
    }

    /** The rule with this id, or null. */
    public static Rule byId(String id) {
        return BY_ID.get(id);
    }

    public static Set<String> ids() {
        return BY_ID.keySet();
    }

    /** The ids a policy file may configure (the built-in rules'), and those of the listed families, which it may not. */
    public static RuleIds policyIds() {
        return policyIds(ids());
    }

    /** The ids a policy file may configure, {@code ruleIds}, and those of the listed families, with why it may not. */
    public static RuleIds policyIds(Set<String> ruleIds) {
        Map<String, String> refused = new LinkedHashMap<>();
        for (ListedFamily f : LISTED) {
            f.rules().forEach(r -> refused.put(r.id(), f.policyRefusal(r.id())));
        }
        return new RuleIds(ruleIds, refused);
    }

    /** The listed family (no audit runs it) that holds the rule {@code id}, or null. */
    public static ListedFamily listedFamily(String id) {
        return LISTED.stream().filter(f -> f.rules().stream().anyMatch(r -> r.id().equals(id))).findFirst()
                .orElse(null);
    }

    /** The families, in catalogue order. */
    public static Set<String> families() {
        Set<String> families = new LinkedHashSet<>();
        ALL.forEach(r -> families.add(r.info().family()));
        return families;
    }

    /** Every name {@code --enable}, {@code --disable} and {@code explain} accept: the families, then the rule ids. */
    public static List<String> names() {
        List<String> names = new ArrayList<>(families());
        names.addAll(ids());
        return names;
    }

    /**
     * What {@code rules} lists and {@code explain} knows: the built-in rules, then the rules of the listed
     * families ({@link ListedFamily}: the probe's verdicts, which only a probe run reports).
     */
    public static List<RuleInfo> catalogue() {
        List<RuleInfo> all = new ArrayList<>(ALL.stream().map(Rule::info).toList());
        LISTED.forEach(f -> all.addAll(f.rules()));
        return all;
    }

    /** The metadata of the built-in or listed rule with this id, or null. */
    public static RuleInfo info(String id) {
        Rule rule = byId(id);
        if (rule != null) {
            return rule.info();
        }
        ListedFamily f = listedFamily(id);
        return f == null ? null : f.rules().stream().filter(r -> r.id().equals(id)).findFirst().orElseThrow();
    }

    /** The rules of the family {@code name} in {@link #catalogue()}, empty when there is no such family. */
    public static List<RuleInfo> family(String name) {
        return catalogue().stream().filter(r -> r.family().equals(name)).toList();
    }

    /**
     * Why {@code name} is no rule id or family of the catalogue, nor one of {@code others} (a caller's own rules
     * and families), with the closest names there are: the one message for an unknown rule, wherever it is named.
     */
    public static String unknown(String name, Collection<String> others) {
        Set<String> known = new LinkedHashSet<>(names());
        catalogue().forEach(r -> {
            known.add(r.family());
            known.add(r.id());
        });
        known.addAll(others);
        List<String> close = Suggestions.closestAll(name, known, 3);
        return "unknown rule or family: " + Escaping.shortened(name, 80)
                + (close.isEmpty() ? "; 'retry-audit rules' lists them" : " (did you mean " + String.join(", ", close) + "?)");
    }

    private static List<ListedFamily> listed() {
        List<ListedFamily> found = new ArrayList<>();
        ServiceLoader.load(ListedFamily.class, RuleRegistry.class.getClassLoader()).forEach(found::add);
        found.sort(java.util.Comparator.comparing(ListedFamily::family));
        return List.copyOf(found);
    }

    private static Map<String, Rule> index(List<Rule> rules) {
        Map<String, Rule> byId = new LinkedHashMap<>();
        for (Rule r : rules) {
            if (byId.put(r.info().id(), r) != null) {
                throw new IllegalStateException("rule id registered twice: " + r.info().id());
            }
        }
        return byId;
    }
}

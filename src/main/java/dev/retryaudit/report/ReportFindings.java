package dev.retryaudit.report;

import dev.retryaudit.model.Finding;
import dev.retryaudit.model.Severity;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.Set;

/**
 * The findings of a {@link Report}: an unchangeable list, counted by severity and by rule in the one
 * pass that copies it, so that the summaries every format prints do not walk a long list again.
 */
final class ReportFindings extends AbstractList<Finding> implements RandomAccess {
    private static final Severity[] SEVERITIES = Severity.values();

    private final Finding[] items;
    private final long[] bySeverity = new long[SEVERITIES.length];
    /** Rule ids in the order of their first finding, and the findings of each. */
    private String[] rules = new String[8];
    private long[] perRule = new long[8];
    private int ruleCount;

    private ReportFindings(Collection<Finding> findings) {
        items = findings.toArray(new Finding[0]);
        int last = -1;
        for (Finding f : items) {
            Objects.requireNonNull(f, "finding");
            bySeverity[f.severity().ordinal()]++;
            String rule = f.rule();
            if (last < 0 || !rules[last].equals(rule)) {
                last = ruleIndex(rule);
            }
            perRule[last]++;
        }
    }

    /**
     * {@code findings} as a report holds them; refuses a finding of a rule not in {@code enabled}
     * (the first such rule in list order).
     */
    static ReportFindings of(Collection<Finding> findings, Set<String> enabled) {
        ReportFindings list = findings instanceof ReportFindings same ? same : new ReportFindings(findings);
        for (int i = 0; i < list.ruleCount; i++) {
            if (!enabled.contains(list.rules[i])) {
                throw new IllegalArgumentException("a finding of rule " + list.rules[i] + ", which is not enabled");
            }
        }
        return list;
    }

    @Override
    public Finding get(int index) {
        return items[Objects.checkIndex(index, items.length)];
    }

    @Override
    public int size() {
        return items.length;
    }

    /** The number of findings of each severity, every severity present. */
    Map<Severity, Long> counts() {
        Map<Severity, Long> counts = new EnumMap<>(Severity.class);
        for (Severity s : SEVERITIES) {
            counts.put(s, bySeverity[s.ordinal()]);
        }
        return counts;
    }

    /** The number of findings of each rule that has any, rules in the order of their first finding. */
    Map<String, Long> perRule() {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (int i = 0; i < ruleCount; i++) {
            counts.put(rules[i], perRule[i]);
        }
        return counts;
    }

    private int ruleIndex(String rule) {
        for (int i = 0; i < ruleCount; i++) {
            if (rules[i].equals(rule)) {
                return i;
            }
        }
        if (ruleCount == rules.length) {
            rules = Arrays.copyOf(rules, ruleCount * 2);
            perRule = Arrays.copyOf(perRule, ruleCount * 2);
        }
        rules[ruleCount] = rule;
        return ruleCount++;
    }
}

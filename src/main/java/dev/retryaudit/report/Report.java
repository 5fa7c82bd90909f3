package dev.retryaudit.report;

import dev.retryaudit.model.FailOn;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.RuleInfo;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Everything a report format prints: the inputs, the findings in their one order, and the verdict
 * against {@code --fail-on}. Every writer renders this record and nothing else. {@code rules} are the
 * enabled rules, each at the severity its findings get; {@code baseline} is the {@code --baseline}
 * report's name (null without one) and {@code suppressed} how many findings it accepted, which are
 * not in {@code findings}. For {@code probe}, {@code probe} holds what the probe observed (null
 * otherwise). {@code timelines} are operations with findings, with their attempts, for a format that draws
 * them (empty unless the writer asked for them, see {@link ReportWriter#timelines()}); at most that many.
 */
public record Report(String toolName, String toolVersion, List<InputSummary> inputs, List<Finding> findings,
        FailOn failOn, List<RuleInfo> rules, String baseline, long suppressed, ProbeFacts probe,
        List<Operation> timelines) {

    public Report {
        Objects.requireNonNull(toolVersion, "toolVersion");
        Objects.requireNonNull(failOn, "failOn");
        inputs = List.copyOf(inputs);
        rules = List.copyOf(rules);
        timelines = timelines == null ? List.of() : List.copyOf(timelines);
        if (suppressed < 0 || (baseline == null && suppressed != 0)) {
            throw new IllegalArgumentException("suppressed findings need a baseline: " + suppressed);
        }
        findings = ReportFindings.of(findings, rules.stream().map(RuleInfo::id).collect(Collectors.toSet()));
    }

    /** The position of a rule in {@link #rules}, or -1. */
    public int ruleIndex(String id) {
        for (int i = 0; i < rules.size(); i++) {
            if (rules.get(i).id().equals(id)) {
                return i;
            }
        }
        return -1;
    }

    /** A report of an audit, with no probe facts. */
    public Report(String toolName, String toolVersion, List<InputSummary> inputs, List<Finding> findings,
            FailOn failOn, List<RuleInfo> rules, String baseline, long suppressed) {
        this(toolName, toolVersion, inputs, findings, failOn, rules, baseline, suppressed, null, List.of());
    }

    /** This report with other findings, of its rules and {@code moreRules}, put in their one order. */
    public Report withFindings(List<Finding> others, List<RuleInfo> moreRules) {
        List<Finding> all = new java.util.ArrayList<>(others);
        all.sort(dev.retryaudit.rules.engine.FindingOrder.ORDER);
        List<RuleInfo> allRules = new java.util.ArrayList<>(rules);
        allRules.addAll(moreRules);
        return new Report(toolName, toolVersion, inputs, all, failOn, allRules, baseline, suppressed, probe, timelines);
    }

    /** This report with what {@code probe} observed (null for none). */
    public Report withProbe(ProbeFacts facts) {
        return new Report(toolName, toolVersion, inputs, findings, failOn, rules, baseline, suppressed, facts,
                timelines);
    }

    /** This report with {@code operations} to draw: those of them that still have a finding in it. */
    public Report withTimelines(List<Operation> operations) {
        if (operations.isEmpty() && timelines.isEmpty()) {
            return this;
        }
        Set<String> wanted = operations.stream().map(Operation::id).collect(Collectors.toSet());
        Set<String> named = new HashSet<>();
        for (int i = 0; i < findings.size() && named.size() < wanted.size(); i++) {
            String id = findings.get(i).operation();
            if (id != null && wanted.contains(id)) {
                named.add(id);
            }
        }
        return new Report(toolName, toolVersion, inputs, findings, failOn, rules, baseline, suppressed, probe,
                operations.stream().filter(op -> named.contains(op.id())).toList());
    }

    public long operations() {
        return inputs.stream().mapToLong(InputSummary::operations).sum();
    }

    public long attempts() {
        return inputs.stream().mapToLong(InputSummary::attempts).sum();
    }

    /** Attempts after the first of each operation. */
    public long retries() {
        return attempts() - operations();
    }

    /** The number of findings of each severity, every severity present. */
    public Map<Severity, Long> counts() {
        return ((ReportFindings) findings).counts();
    }

    /** The number of findings of each rule that has any, rules in the order of their first finding. */
    public Map<String, Long> perRule() {
        return ((ReportFindings) findings).perRule();
    }

    /** Whether no finding is at or above {@code --fail-on}. */
    public boolean passed() {
        return failOn.passes(counts());
    }
}

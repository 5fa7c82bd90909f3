package dev.retryaudit.report;

import dev.retryaudit.model.FailOn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.RuleInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReportFindingsTest {
    private static final List<RuleInfo> RULES = List.of(
            new RuleInfo("a/one", Severity.ERROR, "one"),
            new RuleInfo("b/two", Severity.WARNING, "two"),
            new RuleInfo("c/three", Severity.NOTE, "three"));

    @Test
    void countsBySeverityAndByRuleInOnePassOverTheFindings() {
        List<Finding> fs = List.of(finding("b/two", Severity.WARNING), finding("a/one", Severity.ERROR),
                finding("b/two", Severity.WARNING), finding("b/two", Severity.NOTE));
        Report r = report(fs, FailOn.ERROR);
        assertThat(r.findings()).containsExactlyElementsOf(fs);
        assertThat(r.counts()).containsExactly(Map.entry(Severity.ERROR, 1L), Map.entry(Severity.WARNING, 2L),
                Map.entry(Severity.NOTE, 1L));
        assertThat(r.perRule()).containsExactly(Map.entry("b/two", 3L), Map.entry("a/one", 1L));
        assertThat(r.passed()).isFalse();
        assertThat(report(fs.subList(2, 4), FailOn.ERROR).passed()).isTrue();
        assertThat(report(fs.subList(2, 4), FailOn.WARNING).passed()).isFalse();
        assertThat(report(List.of(), FailOn.NOTE).counts()).containsOnly(Map.entry(Severity.ERROR, 0L),
                Map.entry(Severity.WARNING, 0L), Map.entry(Severity.NOTE, 0L));
    }

    @Test
    void holdsACopyThatCannotChange() {
        List<Finding> fs = new ArrayList<>(List.of(finding("a/one", Severity.ERROR)));
        Report r = report(fs, FailOn.ERROR);
        fs.add(finding("b/two", Severity.WARNING));
        assertThat(r.findings()).hasSize(1);
        assertThatThrownBy(() -> r.findings().add(finding("a/one", Severity.ERROR)))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(r.withProbe(null).findings()).isSameAs(r.findings());
    }

    @Test
    void refusesAFindingOfARuleThatIsNotEnabled() {
        List<Finding> fs = List.of(finding("a/one", Severity.ERROR), finding("x/other", Severity.NOTE));
        assertThatThrownBy(() -> report(fs, FailOn.ERROR)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a finding of rule x/other, which is not enabled");
        List<Finding> withNull = new ArrayList<>();
        withNull.add(null);
        assertThatThrownBy(() -> report(withNull, FailOn.ERROR)).isInstanceOf(NullPointerException.class);
    }

    private static Report report(List<Finding> fs, FailOn failOn) {
        return new Report("retry-audit", "0.1.0", List.of(new InputSummary("a.jsonl", "spans", 1, 1)), fs, failOn,
                RULES, null, 0);
    }

    private static Finding finding(String rule, Severity severity) {
        return Finding.builder().rule(rule).severity(severity).operation("op").attempt(1).tool("t")
                .message(rule + " found").evidence(Evidence.of()).at(new Location("a.jsonl", 0, 1, 1, null)).build();
    }
}

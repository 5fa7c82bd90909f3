package dev.retryaudit.rules.engine;

import dev.retryaudit.model.Location;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Outcome;
import dev.retryaudit.model.Policy;
import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.CrossOperationRule;
import dev.retryaudit.rules.shared.CommitGate;
import dev.retryaudit.rules.OperationRule;
import dev.retryaudit.rules.Rule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The engine's contract: finish runs once, findings cannot change, custom rules run, facts are computed once. */
class EngineTest {
    private static final Operation RETRIED = RetryAudit.operation("op-1", "charge").method("POST").runId("r")
            .at(Location.atLine("in.jsonl", 3))
            .attempt(1, a -> a.outcome(Outcome.TIMEOUT))
            .attempt(2, a -> a.outcome(Outcome.SUCCESS))
            .build();

    @Test
    void finishRunsOnceAndReturnsTheSameFindingsWhenCalledAgain() {
        RuleSelection all = RuleSelection.of(List.of(new RetryCounter()), Policy.DEFAULTS, List.of(), List.of());
        Engine engine = new Engine(Policy.DEFAULTS, all);
        engine.accept(RETRIED);
        List<Finding> first = engine.finish();
        assertThat(first).hasSize(1);
        assertThat(engine.finish()).isSameAs(first);
        assertThatThrownBy(() -> engine.accept(RETRIED)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("finished");
    }

    @Test
    void theEvidenceOfAReturnedFindingCannotChange() {
        Evidence evidence = Evidence.of().put("list", new ArrayList<>(List.of(1)));
        Finding f = Finding.builder().rule("x/y").severity(Severity.ERROR).operation("op").attempt(1).tool("t")
                .message("m").evidence(evidence).at(Location.atLine("in", 1)).build();
        assertThatThrownBy(() -> f.evidence().put("more", 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ((List<?>) f.evidence().asMap().get("list")).clear())
                .isInstanceOf(UnsupportedOperationException.class);
        evidence.put("later", true);
        assertThat(f.evidence().asMap()).containsOnlyKeys("list");
    }

    @Test
    void theAttributesOfAnOperationAreKeptInTheEvidenceOfItsFindings() {
        Operation withAttributes = RetryAudit.operation("op-2", "charge").method("POST")
                .attributesJson("{\"cart\":\"c-1844\",\"amount_cents\":4599}").at(Location.atLine("in.jsonl", 5))
                .attempt(1, a -> a.outcome(Outcome.TIMEOUT)).attempt(2, a -> a.outcome(Outcome.SUCCESS)).build();
        RuleSelection one = RuleSelection.of(List.of(new Retried()), Policy.DEFAULTS, List.of(), List.of());
        Engine engine = new Engine(Policy.DEFAULTS, one);
        engine.accept(withAttributes);
        engine.accept(RETRIED);
        List<Finding> found = engine.finish();
        assertThat(found).extracting(Finding::operation).containsExactly("op-1", "op-2");
        assertThat(found.get(0).evidence().asMap()).isEmpty();
        assertThat(found.get(1).evidence().asMap()).containsOnlyKeys("attributes");
        assertThat(found.get(1).evidence().value(0)).hasToString("RawJson[json={\"cart\":\"c-1844\",\"amount_cents\":4599}]");
    }

    @Test
    void customRulesInASelectionRunAtTheirSeverityAndCanBeDisabled() {
        List<Rule> catalogue = new ArrayList<>(RuleRegistry.all());
        catalogue.add(new Retried());
        catalogue.add(new RetryCounter());
        RuleSelection only = RuleSelection.of(catalogue, Policy.DEFAULTS, List.of("custom"),
                new ArrayList<>(RuleRegistry.families()));
        Engine engine = new Engine(Policy.DEFAULTS, only);
        engine.accept(RETRIED);
        assertThat(engine.finish()).extracting(Finding::rule, Finding::severity, Finding::message)
                .containsExactly(
                        tuple("custom/retry-count", Severity.WARNING, "1 retries in run r"),
                        tuple("custom/retried", Severity.NOTE, "op-1 retried"));
        RuleSelection without = RuleSelection.of(catalogue, Policy.DEFAULTS, List.of("custom"),
                List.of("custom/retried"));
        assertThat(without.enabled()).extracting(r -> r.info().id()).contains("custom/retry-count")
                .doesNotContain("custom/retried");
    }

    @Test
    void everyRuleSeesTheSameRetriesOfAnOperation() {
        Map<List<CommitGate.Retry>, Integer> seen = new IdentityHashMap<>();
        OperationRule a = new FactsProbe("custom/a", seen);
        OperationRule b = new FactsProbe("custom/b", seen);
        Engine engine = new Engine(Policy.DEFAULTS,
                RuleSelection.of(List.of(a, b), Policy.DEFAULTS, List.of(), List.of()));
        engine.accept(RETRIED);
        assertThat(seen).hasSize(1).containsValue(2);
        assertThat(seen.keySet().iterator().next()).singleElement().extracting(CommitGate.Retry::position).isEqualTo(1);
    }

    @Test
    void enginesWithDifferentRulesDoNotMerge() {
        Engine one = new Engine(Policy.DEFAULTS, RuleSelection.defaults());
        Engine other = new Engine(Policy.DEFAULTS,
                RuleSelection.of(List.of(new RetryCounter()), Policy.DEFAULTS, List.of(), List.of()));
        assertThatThrownBy(() -> one.merge(other)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("a part audited with other rules cannot merge: only the part has "
                        + "custom/retry-count=default (" + RetryCounter.class.getName() + "); only this audit has ");
    }

    @Test
    void enginesWithAnotherPerOperationRuleDoNotMerge() {
        Engine one = new Engine(Policy.DEFAULTS, RuleSelection.defaults());
        Engine other = new Engine(Policy.DEFAULTS, RuleSelection.of(Policy.DEFAULTS, List.of(), List.of("trace")));
        assertThatThrownBy(() -> other.merge(one.partial())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("a part audited with other rules cannot merge: only the part has trace/")
                .hasMessageEndingWith("; only this audit has none")
                .message().doesNotContain("budget/");
    }

    @Test
    void enginesWithAnotherSeverityDoNotMerge() {
        Rule retried = new Retried();
        Engine one = new Engine(Policy.DEFAULTS, new RuleSelection(List.of(retried), Map.of()));
        Engine louder = new Engine(Policy.DEFAULTS,
                new RuleSelection(List.of(retried), Map.of("custom/retried", Severity.ERROR)));
        assertThatThrownBy(() -> one.merge(louder.partial())).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a part audited with other rules cannot merge: only the part has custom/retried=error ("
                        + Retried.class.getName() + "); only this audit has custom/retried=default ("
                        + Retried.class.getName() + ")");
    }

    @Test
    void anotherRuleUnderTheSameIdDoesNotMerge() {
        Engine one = new Engine(Policy.DEFAULTS, new RuleSelection(List.of(new Retried()), Map.of()));
        Engine other = new Engine(Policy.DEFAULTS, new RuleSelection(List.of(new OperationRule(
                new RuleInfo("custom/retried", Severity.NOTE, "another rule with the same id")) {
            @Override
            public void check(Operation op, RuleContext ctx) {
            }
        }), Map.of()));
        assertThatThrownBy(() -> one.merge(other.partial())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("only the part has custom/retried=default (dev.retryaudit.rules.engine.EngineTest$");
    }

    @Test
    void enginesUnderAnotherPolicyDoNotMerge() {
        Policy d = Policy.DEFAULTS;
        Policy stricter = d.toBuilder().maxAttempts(d.maxAttempts() + 1).retryableRejections(Set.of(429)).build();
        Engine one = new Engine(d, RuleSelection.defaults());
        Engine other = new Engine(stricter, RuleSelection.defaults());
        assertThatThrownBy(() -> one.merge(other.partial())).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a part audited under another policy cannot merge: its maxAttempts, retryableRejections differ");
        Engine same = new Engine(stricter, RuleSelection.defaults());
        same.merge(new Engine(stricter, RuleSelection.defaults()).partial());
        assertThat(same.finish()).isEmpty();
    }

    /** Reports every operation that retried. */
    static final class Retried extends OperationRule {
        Retried() {
            super(new RuleInfo("custom/retried", Severity.NOTE, "an operation retried"));
        }

        @Override
        public void check(Operation op, RuleContext ctx) {
            if (op.retries() > 0) {
                ctx.report(op, null, op.id() + " retried", Evidence.of());
            }
        }
    }

    /** Counts the retries of each run. */
    static final class RetryCounter extends CrossOperationRule<String, long[]> {
        RetryCounter() {
            super(new RuleInfo("custom/retry-count", Severity.WARNING, "retries per run"));
        }

        @Override
        public Collection<String> keys(Operation op, Policy policy) {
            return List.of(op.runId());
        }

        @Override
        public long[] zero() {
            return new long[1];
        }

        @Override
        public long[] add(long[] count, String key, Operation op, Policy policy) {
            count[0] += op.retries();
            return count;
        }

        @Override
        public long[] merge(long[] left, long[] right) {
            left[0] += right[0];
            return left;
        }

        @Override
        public void finish(String key, long[] count, RuleContext ctx) {
            ctx.at(Location.atLine("in.jsonl", 1)).run(key).report(count[0] + " retries in run " + key,
                    Evidence.of().put("retries", count[0]));
        }
    }

    /** Records which list of retries it was handed. */
    static final class FactsProbe extends OperationRule {
        private final Map<List<CommitGate.Retry>, Integer> seen;

        FactsProbe(String id, Map<List<CommitGate.Retry>, Integer> seen) {
            super(new RuleInfo(id, Severity.NOTE, "records the retries it sees"));
            this.seen = seen;
        }

        @Override
        public void check(Operation op, RuleContext ctx) {
            seen.merge(CommitGate.retries(op, ctx), 1, Integer::sum);
        }
    }
}

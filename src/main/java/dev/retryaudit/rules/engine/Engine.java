package dev.retryaudit.rules.engine;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Policy;
import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.CrossOperationRule;
import dev.retryaudit.rules.OperationFacts;
import dev.retryaudit.rules.OperationRule;
import dev.retryaudit.rules.Rule;
import dev.retryaudit.rules.RuleContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the selected rules over a stream of operations. The facts rules share are computed once per
 * operation; per-operation rules see each operation as it arrives and keep nothing; cross-operation
 * rules keep one aggregate per key. Engines that audited disjoint parts of one input {@link #merge}
 * into the findings of one pass. Findings come out in {@link FindingOrder#ORDER}; {@link #finish}
 * runs once and returns the same list when called again. Not thread-safe: one engine per thread.
 */
public final class Engine {
    private final Policy policy;
    private final List<Bound> perOperation = new ArrayList<>();
    private final List<Aggregation<?, ?>> aggregations = new ArrayList<>();
    private final List<Finding> findings = new ArrayList<>();
    private Operation current;
    private OperationFacts currentFacts;
    private List<Finding> finished;

    public Engine(Policy policy, RuleSelection selection) {
        this.policy = policy;
        for (Rule rule : selection.enabled()) {
            Bound ctx = new Bound(rule, selection.overridden(rule) ? selection.severityOf(rule) : null);
            if (rule instanceof CrossOperationRule<?, ?> cross) {
                aggregations.add(new Aggregation<>(cross, ctx));
            } else {
                perOperation.add(ctx);
            }
        }
    }

    /** Audits one operation. */
    public void accept(Operation op) {
        requireOpen();
        current = op;
        currentFacts = null;
        for (Bound b : perOperation) {
            ((OperationRule) b.rule).check(op, b);
        }
        for (Aggregation<?, ?> a : aggregations) {
            a.add(op);
        }
        current = null;
        currentFacts = null;
    }

    /**
     * Takes over what {@code other} found and aggregated, as if this engine had also seen its
     * operations; {@code other} must run the same rules and is finished afterwards.
     */
    public void merge(Engine other) {
        requireOpen();
        other.requireOpen();
        if (other.aggregations.size() != aggregations.size() || other.perOperation.size() != perOperation.size()) {
            throw new IllegalArgumentException("engines with different rules cannot merge");
        }
        findings.addAll(other.findings);
        for (int i = 0; i < aggregations.size(); i++) {
            aggregations.get(i).mergeFrom(other.aggregations.get(i));
        }
        other.finished = List.of();
    }

    /** Ends the audit: lets cross-operation rules report, then orders every finding. A second call returns the same list. */
    public List<Finding> finish() {
        if (finished == null) {
            for (Aggregation<?, ?> a : aggregations) {
                a.finish();
            }
            findings.sort(FindingOrder.ORDER);
            finished = List.copyOf(findings);
            findings.clear();
        }
        return finished;
    }

    private void requireOpen() {
        if (finished != null) {
            throw new IllegalStateException("the audit has finished or was merged into another");
        }
    }

    /** One cross-operation rule's aggregates, by key. */
    private static final class Aggregation<K, A> {
        private final CrossOperationRule<K, A> rule;
        private final Bound ctx;
        private final Map<K, A> byKey = new HashMap<>();

        Aggregation(CrossOperationRule<K, A> rule, Bound ctx) {
            this.rule = rule;
            this.ctx = ctx;
        }

        void add(Operation op) {
            for (K key : rule.keys(op, ctx.policy())) {
                A aggregate = byKey.get(key);
                byKey.put(key, rule.add(aggregate == null ? rule.zero() : aggregate, key, op, ctx.policy()));
            }
        }

        @SuppressWarnings("unchecked")
        void mergeFrom(Aggregation<?, ?> other) {
            if (other.rule != rule) {
                throw new IllegalArgumentException("engines with different rules cannot merge");
            }
            ((Aggregation<K, A>) other).byKey.forEach((key, theirs) -> byKey.merge(key, theirs, rule::merge));
        }

        void finish() {
            byKey.forEach((key, aggregate) -> rule.finish(key, aggregate, ctx));
            byKey.clear();
        }
    }

    /** A rule bound to this engine: its context, with the policy's severity override if any. */
    private final class Bound implements RuleContext {
        private final Rule rule;
        private final Severity override;

        Bound(Rule rule, Severity override) {
            this.rule = rule;
            this.override = override;
        }

        @Override
        public Policy policy() {
            return policy;
        }

        @Override
        public OperationFacts facts(Operation op) {
            if (op != current) {
                return new OperationFacts(op, policy);
            }
            if (currentFacts == null) {
                currentFacts = new OperationFacts(op, policy);
            }
            return currentFacts;
        }

        @Override
        public void report(Severity severity, Operation op, Attempt attempt, String message, Evidence evidence) {
            Location at = attempt != null ? attempt.location() : op.location();
            add(severity, at, op.id(), attempt == null ? null : attempt.attemptId(), op.tool(), op.runId(),
                    message, evidence);
        }

        @Override
        public void reportAt(Location location, String operation, Integer attempt, String tool, String run,
                String message, Evidence evidence) {
            add(null, location, operation, attempt, tool, run, message, evidence);
        }

        private void add(Severity severity, Location at, String operation, Integer attempt, String tool, String run,
                String message, Evidence evidence) {
            Severity s = override != null ? override : severity != null ? severity : rule.info().severity();
            findings.add(Finding.of(rule.info().id(), s, operation, attempt, tool, run, message, evidence, at));
        }
    }
}

package dev.retryaudit.rules.engine;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Policy;
import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.CrossOperationRule;
import dev.retryaudit.rules.OperationRule;
import dev.retryaudit.rules.Rule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.model.LazyText;
import dev.retryaudit.model.values.RawJson;
import dev.retryaudit.rules.shared.CommitGate;
import dev.retryaudit.rules.shared.LazyReports;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Runs the selected rules over a stream of operations. The facts rules share are computed once per
 * operation; per-operation rules see each operation as it arrives and keep nothing; cross-operation
 * rules keep one aggregate per key. Engines that audited disjoint parts of one input {@link #merge}
 * (in one process, or as serializable {@link Partial}s) into the findings of one pass. Findings
 * come out in {@link FindingOrder#ORDER}; {@link #finish} runs once and returns the same list when
 * called again. An engine that {@link #keep keeps} operations holds the first few that got a
 * finding as they arrived, for a report that draws them; it holds no other. Not thread-safe: one
 * engine per thread. A finding about an operation the tool grouped itself carries
 * {@code grouped_by} in its evidence.
 */
public final class Engine {
    /** The evidence key under which a finding about an operation keeps the operation's free-form attributes. */
    private static final String ATTRIBUTES = "attributes";

    private final Policy policy;
    private final List<String> rules = new ArrayList<>();
    private final List<Bound> perOperation = new ArrayList<>();
    private final List<Aggregation<?, ?>> aggregations = new ArrayList<>();
    private final List<Finding> findings = new ArrayList<>();
    private final List<Operation> kept = new ArrayList<>();
    private int keep;
    private Operation current;
    private Boolean currentWrite;
    private List<CommitGate.Retry> currentRetries;
    private List<Finding> finished;
    private Setup checked;
    private Set<String> aggregationIds;

    public Engine(Policy policy, RuleSelection selection) {
        this.policy = policy;
        for (Rule rule : selection.enabled()) {
            Bound ctx = new Bound(rule, selection.overridden(rule) ? selection.severityOf(rule) : null);
            rules.add(rule.info().id() + "=" + (ctx.override == null ? "default" : ctx.override.id()) + " ("
                    + rule.getClass().getName() + ")");
            if (rule instanceof CrossOperationRule<?, ?> cross) {
                aggregations.add(new Aggregation<>(cross, ctx));
            } else {
                perOperation.add(ctx);
            }
        }
    }

    /** Keeps up to {@code max} of the operations that get a finding from a per-operation rule (none by default). */
    public Engine keep(int max) {
        this.keep = max;
        return this;
    }

    /** Audits one operation. */
    public void accept(Operation op) {
        requireOpen();
        current = op;
        currentWrite = null;
        currentRetries = null;
        int before = findings.size();
        for (Bound b : perOperation) {
            ((OperationRule) b.rule).check(op, b);
        }
        if (findings.size() > before && kept.size() < keep) {
            kept.add(op);
        }
        for (Aggregation<?, ?> a : aggregations) {
            a.add(op);
        }
        current = null;
        currentWrite = null;
        currentRetries = null;
    }

    /**
     * The findings of the per-operation rules made since the engine started or this was last called, which the
     * engine then no longer holds, in the order they were made: for an audit that hands them on as each part of
     * its input is audited and keeps only the cross-operation aggregates until {@link #finish}.
     */
    public List<Finding> takeFindings() {
        requireOpen();
        List<Finding> taken = List.copyOf(findings);
        findings.clear();
        return taken;
    }

    /**
     * Takes over what {@code other} found and aggregated, as if this engine had also seen its
     * operations; {@code other} must run the same policy and rules and is finished afterwards.
     */
    public void merge(Engine other) {
        merge(other.partial());
    }

    /**
     * Ends this engine's part of an audit without judging the aggregates: what it found and
     * aggregated, as a serializable value that another engine with the same rules can
     * {@link #merge(Partial)}.
     */
    public Partial partial() {
        requireOpen();
        Map<String, Map<Object, Object>> aggregates = new LinkedHashMap<>();
        for (Aggregation<?, ?> a : aggregations) {
            aggregates.put(a.rule.info().id(), new HashMap<>(a.byKey));
        }
        Partial p = new Partial(new Setup(policy, rules), findings, aggregates);
        finished = List.of();
        return p;
    }

    /**
     * Takes over a part audited elsewhere, as if this engine had also seen its operations. A part
     * audited under another policy or with other rules (or other severities) would give findings that no
     * one pass gives: it is an {@link IllegalArgumentException}, naming what differs.
     */
    public void merge(Partial part) {
        requireOpen();
        // The pieces split from one part share its setup: it is checked once.
        if (part.setup() != checked) {
            part.setup().requireSame(new Setup(policy, rules));
            checked = part.setup();
        }
        if (!part.aggregates().keySet().equals(aggregationIds())) {
            throw new IllegalArgumentException("a part audited with other cross-operation rules cannot merge: "
                    + part.aggregates().keySet() + " is not " + aggregationIds());
        }
        findings.addAll(part.findings());
        for (Aggregation<?, ?> a : aggregations) {
            a.mergeFrom(part.aggregates().get(a.rule.info().id()));
        }
    }

    /**
     * What an engine's findings depend on besides its operations: the policy, and each enabled rule
     * ({@code id=severity (class)}, the severity {@code default} unless the selection overrides it), in order.
     */
    public record Setup(Policy policy, List<String> rules) implements Serializable {
        public Setup {
            rules = List.copyOf(rules);
        }

        /** Refuses a part set up otherwise than {@code ours}, naming the policy fields or the rules that differ. */
        void requireSame(Setup ours) {
            if (!policy.equals(ours.policy)) {
                List<String> fields = ours.policy.differences(policy);
                throw new IllegalArgumentException("a part audited under another policy cannot merge: its "
                        + String.join(", ", fields) + " differ" + (fields.size() == 1 ? "s" : ""));
            }
            if (!rules.equals(ours.rules)) {
                List<String> theirsOnly = new ArrayList<>(rules);
                theirsOnly.removeAll(ours.rules);
                List<String> oursOnly = new ArrayList<>(ours.rules);
                oursOnly.removeAll(rules);
                throw new IllegalArgumentException(theirsOnly.isEmpty() && oursOnly.isEmpty()
                        ? "a part audited with the same rules in another order cannot merge"
                        : "a part audited with other rules cannot merge: only the part has " + listed(theirsOnly)
                                + "; only this audit has " + listed(oursOnly));
            }
        }

        private static String listed(List<String> rules) {
            return rules.isEmpty() ? "none" : String.join(", ", rules);
        }
    }

    /**
     * What one engine found and aggregated over its part of an input: how it was set up, per-operation
     * findings and, per cross-operation rule id, its aggregates by key. Serializable when the rules' keys
     * and aggregates are, as the built-in rules' are.
     */
    public record Partial(Setup setup, List<Finding> findings, Map<String, Map<Object, Object>> aggregates)
            implements Serializable {
        public Partial {
            Objects.requireNonNull(setup, "setup");
            findings = List.copyOf(findings);
            Map<String, Map<Object, Object>> copy = new LinkedHashMap<>();
            aggregates.forEach((id, byKey) -> copy.put(id, Collections.unmodifiableMap(new HashMap<>(byKey))));
            aggregates = Collections.unmodifiableMap(copy);
        }
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

    /** The operations kept, in input order. */
    public List<Operation> kept() {
        return List.copyOf(kept);
    }

    private Set<String> aggregationIds() {
        if (aggregationIds == null) {
            Set<String> ids = new LinkedHashSet<>();
            aggregations.forEach(a -> ids.add(a.rule.info().id()));
            aggregationIds = ids;
        }
        return aggregationIds;
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

        /**
         * Merges aggregates of this rule from another part; a rule's own keys and aggregates are of its types.
         * The part's aggregates are merged into this engine's own (a new one for a key it has not seen), never
         * updated: a part may be merged again, elsewhere.
         */
        @SuppressWarnings("unchecked")
        void mergeFrom(Map<Object, Object> theirs) {
            theirs.forEach((key, aggregate) -> {
                A ours = byKey.get(key);
                byKey.put((K) key, rule.merge(ours == null ? rule.zero() : ours, (A) aggregate));
            });
        }

        void finish() {
            byKey.forEach((key, aggregate) -> rule.finish(key, aggregate, ctx));
            byKey.clear();
        }
    }

    /** A rule bound to this engine: its context, with the policy's severity override if any. */
    private final class Bound implements RuleContext, CommitGate.Memo, LazyReports {
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
        public boolean isWrite(Operation op) {
            if (op != current) {
                return policy.isWrite(op);
            }
            if (currentWrite == null) {
                currentWrite = policy.isWrite(op);
            }
            return currentWrite;
        }

        @Override
        public List<CommitGate.Retry> retries(Operation op) {
            if (op != current) {
                return CommitGate.retries(op, policy);
            }
            if (currentRetries == null) {
                currentRetries = CommitGate.retries(op, policy);
            }
            return currentRetries;
        }

        @Override
        public void report(Severity severity, Operation op, Attempt attempt, String message, Evidence evidence) {
            add(severity, at(op, attempt, evidence), op.id(), attempt == null ? null : attempt.attemptId(), op.tool(),
                    op.runId(), message, evidence);
        }

        @Override
        public void reportLazily(Operation op, Attempt attempt, LazyText message, Evidence evidence) {
            Location at = at(op, attempt, evidence);
            findings.add(finding(severity(null), op.id(), attempt == null ? null : attempt.attemptId(), op.tool(),
                    op.runId()).message(message).evidence(evidence).at(at).build());
        }

        /**
         * Where a finding about {@code attempt} of {@code op} stands; says {@link #GROUPED_BY} in the evidence when the
         * tool grouped the operation, and keeps the operation's free-form {@code attributes} there as they were given.
         */
        private Location at(Operation op, Attempt attempt, Evidence evidence) {
            if (op.groupedBy() != null && !evidence.has(GROUPED_BY)) {
                evidence.put(GROUPED_BY, op.groupedBy());
            }
            if (op.attributesJson() != null && !evidence.has(ATTRIBUTES)) {
                evidence.put(ATTRIBUTES, new RawJson(op.attributesJson()));
            }
            return attempt != null ? attempt.location() : op.location();
        }

        @Override
        public FindingBuilder at(Location location) {
            return new Described(Objects.requireNonNull(location, "location"));
        }

        /** A finding at a location that no single operation owns, as the rule describes it. */
        private final class Described implements FindingBuilder {
            private final Location location;
            private String operation;
            private Integer attempt;
            private String tool;
            private String run;

            Described(Location location) {
                this.location = location;
            }

            @Override
            public FindingBuilder operation(String id, String tool, String run) {
                this.operation = id;
                this.tool = tool;
                this.run = run;
                return this;
            }

            @Override
            public FindingBuilder attempt(Integer attempt) {
                this.attempt = attempt;
                return this;
            }

            @Override
            public FindingBuilder run(String run) {
                this.run = run;
                return this;
            }

            @Override
            public void report(String message, Evidence evidence) {
                add(null, location, operation, attempt, tool, run, message, evidence);
            }
        }

        private void add(Severity severity, Location at, String operation, Integer attempt, String tool, String run,
                String message, Evidence evidence) {
            findings.add(finding(severity(severity), operation, attempt, tool, run).message(message).evidence(evidence)
                    .at(at).build());
        }

        /** A finding of this rule at {@code severity} about {@code attempt} of {@code operation}, its message and place to set. */
        private Finding.Builder finding(Severity severity, String operation, Integer attempt, String tool, String run) {
            return Finding.builder().rule(rule.info().id()).severity(severity).operation(operation).attempt(attempt)
                    .tool(tool).run(run);
        }

        private Severity severity(Severity asked) {
            return override != null ? override : asked != null ? asked : rule.info().severity();
        }
    }
}

package dev.retryaudit.rules;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Policy;
import dev.retryaudit.model.Severity;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the selected rules over a stream of operations. Per-operation rules see each operation as
 * it arrives and keep nothing; cross-operation rules keep only their tallies. Findings come out in
 * {@link FindingOrder#ORDER}. A finding about an operation the tool grouped itself carries
 * {@code grouped_by} in its evidence. An engine that {@link #keep keeps} operations holds the first
 * few that got a finding as they arrived, for a report that draws them; it holds no other.
 */
public final class Engine {
    /** The evidence key that says why a foreign format's attempts were read as one operation. */
    private static final String GROUPED_BY = "grouped_by";

    private final Policy policy;
    private final List<Bound> perOperation = new ArrayList<>();
    private final List<CrossOperationRule.Tally> tallies = new ArrayList<>();
    private final List<Finding> findings = new ArrayList<>();
    private final List<Operation> kept = new ArrayList<>();
    private int keep;

    public Engine(Policy policy, RuleSelection selection) {
        this.policy = policy;
        for (Rule rule : selection.enabled()) {
            Bound ctx = new Bound(rule, selection.overridden(rule) ? selection.severityOf(rule) : null);
            if (rule instanceof CrossOperationRule cross) {
                tallies.add(cross.start(ctx));
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
        int before = findings.size();
        for (Bound b : perOperation) {
            b.rule.check(op, b);
        }
        if (findings.size() > before && kept.size() < keep) {
            kept.add(op);
        }
        for (CrossOperationRule.Tally t : tallies) {
            t.add(op);
        }
    }

    /** Ends the audit: lets cross-operation rules report, then orders every finding. */
    public List<Finding> finish() {
        for (CrossOperationRule.Tally t : tallies) {
            t.finish();
        }
        findings.sort(FindingOrder.ORDER);
        return List.copyOf(findings);
    }

    /** The operations kept, in input order. */
    public List<Operation> kept() {
        return List.copyOf(kept);
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
        public void report(Severity severity, Operation op, Attempt attempt, String message, Evidence evidence) {
            Location at = attempt != null ? attempt.location() : op.location();
            if (op.groupedBy() != null && !evidence.asMap().containsKey(GROUPED_BY)) {
                evidence.put(GROUPED_BY, op.groupedBy());
            }
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

package dev.retryaudit.rules.budget;

import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Policy;
import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.CrossOperationRule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;
import java.io.Serializable;
import java.util.Collection;
import java.util.Collections;

/**
 * A run that spends more than its retry budget (retries per operation, above a floor of retries)
 * turns a partial outage into a retry storm. Operations without a run_id form one run. Each
 * offending run is reported once, at its first operation in input order.
 */
public final class RetryRatio extends CrossOperationRule<String, RetryRatio.Run> {
    public RetryRatio() {
        super(new RuleInfo("budget/retry-ratio", Severity.WARNING,
                "in one run, retries / operations > retry_budget.ratio and retries >= retry_budget.min_retries"));
    }

    /**
     * Per run (the key: run_id, null for operations without one): where it starts and its counts; added
     * to in place, as one is made per run and counts every operation of it.
     */
    public static final class Run implements Serializable {
        private static final long serialVersionUID = 1L;

        private Location first;
        private long operations;
        private long retries;

        /** The run's first operation in input order, null while it has none. */
        public Location first() {
            return first;
        }

        public long operations() {
            return operations;
        }

        public long retries() {
            return retries;
        }
    }

    @Override
    public Collection<String> keys(Operation op, Policy policy) {
        return Collections.singletonList(op.runId());
    }

    @Override
    public Run zero() {
        return new Run();
    }

    @Override
    public Run add(Run run, String key, Operation op, Policy policy) {
        if (run.first == null || op.isBefore(run.first)) {
            run.first = op.location();
        }
        run.operations++;
        run.retries += op.retries();
        return run;
    }

    @Override
    public Run merge(Run left, Run right) {
        if (left.first == null || right.first != null && Location.ORDER.compare(right.first, left.first) < 0) {
            left.first = right.first;
        }
        left.operations += right.operations;
        left.retries += right.retries;
        return left;
    }

    @Override
    public void finish(String id, Run run, RuleContext ctx) {
        Policy policy = ctx.policy();
        double ratio = (double) run.retries() / run.operations();
        if (ratio <= policy.retryBudgetRatio() || run.retries() < policy.retryBudgetMinRetries()) {
            return;
        }
        String name = id == null ? "the operations without a run_id" : "run " + id;
        ctx.at(run.first()).run(id).report(name + " made " + run.retries() + " retries for "
                + run.operations() + " operations (" + Math.round(ratio * 100) + "%), over its retry budget of "
                + Math.round(policy.retryBudgetRatio() * 100) + "%: retries at this rate turn an outage into"
                + " a retry storm",
                Evidence.of().put("operations", run.operations())
                        .put("retries", run.retries())
                        .put("ratio", Math.round(ratio * 1000) / 1000.0)
                        .put("budget_ratio", policy.retryBudgetRatio())
                        .put("min_retries", policy.retryBudgetMinRetries()));
    }
}

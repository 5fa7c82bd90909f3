package dev.retryaudit.rules.budget;

import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Policy;
import dev.retryaudit.model.Severity;
import dev.retryaudit.rules.CrossOperationRule;
import dev.retryaudit.rules.RuleContext;
import dev.retryaudit.rules.RuleInfo;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A run that spends more than its retry budget (retries per operation, above a floor of retries)
 * turns a partial outage into a retry storm. Operations without a run_id form one run. Each
 * offending run is reported once, at its first operation.
 */
public final class RetryRatio implements CrossOperationRule {
    static final RuleInfo INFO = new RuleInfo("budget/retry-ratio", Severity.WARNING,
            "in one run, retries / operations > retry_budget.ratio and retries >= retry_budget.min_retries");

    @Override
    public RuleInfo info() {
        return INFO;
    }

    @Override
    public Tally start(RuleContext ctx) {
        return new Runs(ctx);
    }

    /** Per run: where it starts and its counts. */
    private static final class Run {
        private final Location first;
        private long operations;
        private long retries;

        Run(Location first) {
            this.first = first;
        }
    }

    /** The counters of every run seen so far, keyed by run_id (null for operations without one). */
    private static final class Runs implements Tally {
        private final RuleContext ctx;
        private final Map<String, Run> runs = new LinkedHashMap<>();

        Runs(RuleContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public void add(Operation op) {
            Run run = runs.computeIfAbsent(op.runId(), k -> new Run(op.location()));
            run.operations++;
            run.retries += op.retries();
        }

        @Override
        public void finish() {
            Policy policy = ctx.policy();
            runs.forEach((id, run) -> {
                double ratio = (double) run.retries / run.operations;
                if (ratio <= policy.retryBudgetRatio() || run.retries < policy.retryBudgetMinRetries()) {
                    return;
                }
                String name = id == null ? "the operations without a run_id" : "run " + id;
                ctx.reportAt(run.first, null, null, null, id, name + " made " + run.retries + " retries for "
                        + run.operations + " operations (" + Math.round(ratio * 100) + "%), over its retry budget of "
                        + Math.round(policy.retryBudgetRatio() * 100) + "%: retries at this rate turn an outage into"
                        + " a retry storm",
                        Evidence.of().put("operations", run.operations)
                                .put("retries", run.retries)
                                .put("ratio", Math.round(ratio * 1000) / 1000.0)
                                .put("budget_ratio", policy.retryBudgetRatio())
                                .put("min_retries", policy.retryBudgetMinRetries()));
            });
        }
    }
}

package dev.retryaudit.rules;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Policy;
import java.util.ArrayList;
import java.util.List;

/**
 * Facts about one operation that several rules need, computed at most once per operation and handed
 * to every rule through {@link RuleContext#facts}: whether it writes, its adjacent pairs of attempts
 * (which {@link PairRule} judges), and for a write its retries with the commit-gate row of each
 * (which {@link RetryRule} judges).
 */
public final class OperationFacts {
    private final Operation op;
    private final Policy policy;
    private final boolean write;
    private List<Pair> pairs;
    private List<CommitGate.Retry> retries;

    public OperationFacts(Operation op, Policy policy) {
        this.op = op;
        this.policy = policy;
        this.write = policy.isWrite(op);
    }

    /** Two adjacent attempts: {@code next} at list position {@code position}, {@code prior} just before it. */
    record Pair(int position, Attempt prior, Attempt next) {
    }

    public Operation operation() {
        return op;
    }

    /** Whether the policy counts the operation as a write. */
    public boolean isWrite() {
        return write;
    }

    /** Every pair of adjacent attempts, in attempt order; none for a single attempt ({@link PairRule} judges them). */
    List<Pair> pairs() {
        if (pairs == null && op.attempts().size() < 2) {
            pairs = List.of();
        }
        if (pairs == null) {
            List<Attempt> attempts = op.attempts();
            List<Pair> all = new ArrayList<>(attempts.size() - 1);
            for (int i = 1; i < attempts.size(); i++) {
                all.add(new Pair(i, attempts.get(i - 1), attempts.get(i)));
            }
            pairs = List.copyOf(all);
        }
        return pairs;
    }

    /** Every retry of the write with its commit-gate row, in attempt order; none when the operation reads. */
    public List<CommitGate.Retry> retries() {
        if (retries == null) {
            retries = CommitGate.retries(op, policy);
        }
        return retries;
    }
}

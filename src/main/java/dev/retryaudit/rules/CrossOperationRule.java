package dev.retryaudit.rules;

import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Policy;
import java.util.Collection;

/**
 * A rule that needs facts from several operations, as a mergeable aggregate: each operation adds to
 * the aggregates of the keys it belongs to (a run, an idempotency key), aggregates of the same key
 * from any split of the input merge, and {@link #finish} judges each key's aggregate once. "First"
 * always means first in {@link dev.retryaudit.model.Location#ORDER}, never first to arrive, so any
 * split and merge gives the findings of one pass. The rule itself keeps no state.
 *
 * @param <K> the key operations are aggregated by (may be null, e.g. no run_id)
 * @param <A> the aggregate of one key; {@code add} and {@code merge} may update and return their first argument
 */
public abstract non-sealed class CrossOperationRule<K, A> extends Rule {
    protected CrossOperationRule(RuleInfo info) {
        super(info);
    }

    /** The keys {@code op} adds to; usually one, none when the operation does not concern the rule. */
    public abstract Collection<K> keys(Operation op, Policy policy);

    /** A new, empty aggregate. */
    public abstract A zero();

    /** Folds {@code op} into the aggregate of {@code key}. */
    public abstract A add(A aggregate, K key, Operation op, Policy policy);

    /** Two aggregates of one key, from disjoint parts of the input, as one; must not depend on their order. */
    public abstract A merge(A left, A right);

    /** Reports what the whole input showed for {@code key}; called once per key, after the last operation. */
    public abstract void finish(K key, A aggregate, RuleContext ctx);
}

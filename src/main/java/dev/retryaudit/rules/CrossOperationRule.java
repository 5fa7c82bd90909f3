package dev.retryaudit.rules;

import dev.retryaudit.model.Operation;

/**
 * A rule that needs facts from several operations (per run, per key). The rule stays stateless:
 * each audit gets a fresh {@link Tally} that keeps only what the rule must remember.
 */
public interface CrossOperationRule extends Rule {
    /** A new, empty tally for one audit. */
    Tally start(RuleContext ctx);

    @Override
    default void check(Operation op, RuleContext ctx) {
        throw new UnsupportedOperationException(info().id() + " looks across operations; use start()");
    }

    /** The state of a cross-operation rule during one audit. */
    interface Tally {
        /** Sees one operation, in input order. */
        void add(Operation op);

        /** Reports what the whole input showed; called once, after the last operation. */
        void finish();
    }
}

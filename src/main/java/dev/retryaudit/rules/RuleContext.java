package dev.retryaudit.rules;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Evidence;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Policy;
import dev.retryaudit.model.Severity;

/** What a rule sees while it runs: the policy, whether an operation writes, and where to report findings under its own id. */
public interface RuleContext {
    /** The evidence key that says why a foreign format's attempts were read as one operation. */
    String GROUPED_BY = "grouped_by";

    Policy policy();

    /**
     * Whether the policy counts {@code op} as a write ({@link Policy#isWrite}): the engine's context decides
     * it once for the operation under audit, whichever rule asks first.
     */
    default boolean isWrite(Operation op) {
        return policy().isWrite(op);
    }

    /**
     * Reports a finding about {@code attempt} of {@code op} (or the whole operation when attempt is
     * null), at the rule's default severity; about an operation the tool grouped itself, the evidence
     * also says {@link #GROUPED_BY}.
     */
    default void report(Operation op, Attempt attempt, String message, Evidence evidence) {
        report(null, op, attempt, message, evidence);
    }

    /** As {@link #report(Operation, Attempt, String, Evidence)} at a given severity; null means the rule's default. */
    void report(Severity severity, Operation op, Attempt attempt, String message, Evidence evidence);

    /**
     * Starts a finding that no single operation owns (a run, a key) at {@code location}, at the rule's
     * default severity: say what it concerns, then {@link FindingBuilder#report report} it.
     */
    FindingBuilder at(Location location);

    /** A finding being described: what it concerns, then its message and evidence, which report it. */
    interface FindingBuilder {
        /** The operation the finding concerns, with its tool and run (either may be null). */
        FindingBuilder operation(String id, String tool, String run);

        /** The attempt of the operation it concerns; null for the whole operation. */
        FindingBuilder attempt(Integer attempt);

        /** The run it concerns, for a finding about a whole run. */
        FindingBuilder run(String run);

        /** Reports the finding with {@code message} and {@code evidence}. */
        void report(String message, Evidence evidence);
    }
}

package dev.retryaudit.api;

import dev.retryaudit.model.Limits;
import dev.retryaudit.rules.engine.Engine;
import java.io.Serializable;

/**
 * One part of an audit split across threads, processes or machines: what {@link RetryAudit#auditPart}
 * found in its operations and what the cross-operation rules aggregated, not yet judged. Parts of one
 * input, in any split and any order, {@link RetryAudit#merge merge} into the findings of one pass, by an
 * auditor with the same policy, rules and limits. Immutable and serializable.
 */
public final class AuditPart implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Engine.Partial state;
    private final Limits limits;
    private final long operations;
    private final long attempts;

    AuditPart(Engine.Partial state, Limits limits, long operations, long attempts) {
        this.state = state;
        this.limits = limits;
        this.operations = operations;
        this.attempts = attempts;
    }

    Engine.Partial state() {
        return state;
    }

    /** The limits of the auditor that audited this part. */
    Limits limits() {
        return limits;
    }

    /** The operations audited in this part. */
    public long operations() {
        return operations;
    }

    /** Their attempts. */
    public long attempts() {
        return attempts;
    }
}

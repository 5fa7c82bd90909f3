package dev.retryaudit.spark;

import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.input.Limits;
import dev.retryaudit.model.Policy;
import dev.retryaudit.report.FailOn;
import java.io.Serializable;
import java.util.List;

/**
 * What every task needs to audit as the driver does: the policy (read once, on the driver), the rule
 * selection, the limits and {@code --fail-on}. Tasks build their own {@link RetryAudit} from it.
 */
record AuditSettings(Policy policy, List<String> enable, List<String> disable, long[] limitValues, FailOn failOn)
        implements Serializable {
    AuditSettings(Policy policy, List<String> enable, List<String> disable, Limits limits, FailOn failOn) {
        this(policy, List.copyOf(enable), List.copyOf(disable), new long[] {limits.bytes(), limits.operations(),
            limits.attemptsPerOperation(), limits.stringLength(), limits.depth()}, failOn);
    }

    /** The limits (held as numbers: the library's value is not serializable). */
    Limits limits() {
        long[] v = limitValues;
        return new Limits(v[0], v[1], (int) v[2], (int) v[3], (int) v[4]);
    }

    /** The auditor these settings describe; the names were checked when the driver built one. */
    RetryAudit auditor() {
        try {
            return RetryAudit.builder().policy(policy).enable(enable.toArray(String[]::new))
                    .disable(disable.toArray(String[]::new)).limits(limits()).failOn(failOn).build();
        } catch (RetryAuditException e) {
            throw new IllegalStateException("a policy given as a value cannot fail to read", e);
        }
    }
}

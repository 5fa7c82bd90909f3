package dev.retryaudit.spark;

import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Policy;
import dev.retryaudit.report.FailOn;
import java.io.Serializable;
import java.util.List;

/**
 * What every task needs to audit as the driver does: the policy (read once, on the driver), the rule
 * selection, the limits and {@code --fail-on}. Tasks build their own {@link RetryAudit} from it.
 */
record AuditSettings(Policy policy, List<String> enable, List<String> disable, Limits limits, FailOn failOn)
        implements Serializable {
    AuditSettings {
        enable = List.copyOf(enable);
        disable = List.copyOf(disable);
    }

    /** The auditor these settings describe; the names were checked when the driver built one. */
    RetryAudit auditor() {
        try {
            return RetryAudit.of(dev.retryaudit.api.AuditSettings.builder().policy(policy).enable(enable)
                    .disable(disable).limits(limits()).failOn(failOn).build());
        } catch (RetryAuditException e) {
            throw new IllegalStateException("a policy given as a value cannot fail to read", e);
        }
    }
}

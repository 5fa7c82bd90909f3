package dev.retryaudit.spark;

import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.api.split.SplitAudit;
import dev.retryaudit.model.FailOn;
import dev.retryaudit.model.Limits;
import java.io.Serializable;

/**
 * The audit settings every task audits with, as the driver read them: its {@link dev.retryaudit.api.AuditSettings}
 * with the policy file read into a value, so that tasks build their own {@link RetryAudit} without a file.
 */
record AuditSettings(dev.retryaudit.api.AuditSettings settings) implements Serializable {
    Limits limits() {
        return settings.limits();
    }

    FailOn failOn() {
        return settings.failOn();
    }

    /** The auditor these settings describe; they name no file, so it reads none. */
    RetryAudit auditor() {
        try {
            return RetryAudit.of(settings);
        } catch (RetryAuditException e) {
            throw new IllegalStateException("settings that name no file cannot fail to read", e);
        }
    }

    /** The split audit of {@link #auditor}. */
    SplitAudit split() {
        return SplitAudit.of(auditor());
    }
}

package dev.retryaudit.api.split;

import dev.retryaudit.api.AuditResult;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.api.access.SplitAccess;
import dev.retryaudit.model.internal.InputException;
import java.lang.invoke.MethodHandles;

/** What the library face lends this package: loaded first, so that a reader used before any auditor has it. */
final class Lent {
    private Lent() {
    }

    @SuppressWarnings("unchecked")
    static SplitAccess.Lender<RetryAudit, AuditResult, RetryAuditException> lender() {
        try {
            MethodHandles.lookup().ensureInitialized(RetryAudit.class);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("the auditor class is public", e);
        }
        return (SplitAccess.Lender<RetryAudit, AuditResult, RetryAuditException>) SplitAccess.lender();
    }

    /** The library error of {@code e}, as the library face words it. */
    static RetryAuditException error(InputException e) {
        return lender().error(e);
    }
}

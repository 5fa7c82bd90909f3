package dev.retryaudit.api.internal;

import dev.retryaudit.api.AuditResult;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.report.Report;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The report value of an audit, as {@link RetryAudit#writeReport} writes it: the API keeps the value to
 * itself, and this reaches the auditor's own (package-private) making of it through the module's access to
 * its own packages, so that one place says what a report of an audit holds.
 */
public final class AuditReports {
    private static final MethodHandle REPORT;

    static {
        try {
            REPORT = MethodHandles.privateLookupIn(RetryAudit.class, MethodHandles.lookup()).findVirtual(
                    RetryAudit.class, "report", MethodType.methodType(Report.class, AuditResult.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private AuditReports() {
    }

    /** The report of {@code result}: its inputs, findings, baseline and timelines with {@code auditor}'s rules and --fail-on. */
    public static Report of(RetryAudit auditor, AuditResult result) {
        try {
            return (Report) REPORT.invokeExact(auditor, result);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}

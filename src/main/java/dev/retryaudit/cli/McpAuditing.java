package dev.retryaudit.cli;

import dev.retryaudit.api.AuditResult;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.input.InputSet;
import dev.retryaudit.mcp.Auditing;
import dev.retryaudit.model.InputException;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Policy;
import dev.retryaudit.report.FailOn;
import dev.retryaudit.report.Report;
import java.io.InputStream;
import java.util.List;

/** The MCP server's audits, run by the library facade as {@code audit} and {@code probe} run theirs. */
final class McpAuditing implements Auditing {
    private McpAuditing() {
    }

    /**
     * The MCP server's audits. Typed as the interface so that verifying {@code mcp}'s caller, which every command
     * line loads, loads nothing of the MCP server.
     */
    static Auditing create() {
        return new McpAuditing();
    }

    @Override
    public Report audit(InputFormat format, Limits limits, Policy policy, List<String> enable, List<String> disable,
            FailOn failOn, InputSet.Source source, InputStream in) throws InputException {
        RetryAudit auditor = auditor(limits, policy, enable, disable, failOn, format);
        try {
            boolean stream = source.path() == null && source.unusable() == null;
            AuditResult result = stream ? auditor.audit(in, source.name())
                    : auditor.audit(List.of(source.name()), InputStream.nullInputStream());
            return auditor.report(result);
        } catch (RetryAuditException e) {
            throw e.input();
        }
    }

    @Override
    public Report audit(List<Operation> operations, String source, InputFormat format, Policy policy,
            List<String> enable, List<String> disable, FailOn failOn) {
        RetryAudit auditor = auditor(Limits.DEFAULTS, policy, enable, disable, failOn, InputFormat.AUTO);
        return auditor.report(auditor.audit(operations, source, format));
    }

    private static RetryAudit auditor(Limits limits, Policy policy, List<String> enable, List<String> disable,
            FailOn failOn, InputFormat format) {
        return AuditOptions.build(AuditOptions.settings(limits, policy, enable, disable, failOn)
                .inputFormat(format));
    }
}

package dev.retryaudit.probe;

import dev.retryaudit.api.AuditInput;
import dev.retryaudit.api.AuditResult;
import dev.retryaudit.api.AuditSettings;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Policy;
import dev.retryaudit.report.ProbeFacts;
import dev.retryaudit.report.Report;
import dev.retryaudit.rules.RuleInfo;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * One probe run as it ended: the URL it served, the trace it recorded, the client command as it was run
 * (every {@code {url}} replaced; empty when the probe only served) and how the client ended (null without
 * one), and how long the run was given ({@code --timeout}, or how long it served). Its {@link #operations}
 * are audited like any input; {@link #judge} turns that audit into the probe's report and verdict.
 */
public record ProbeRun(String url, RecordedTrace trace, List<String> command, ClientRun.Result client,
        long timeoutSeconds) {
    public ProbeRun {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(trace, "trace");
        command = List.copyOf(command);
    }

    /**
     * The operations of the trace as if it were read from a source named {@code source}: the same as reading
     * the trace {@link TraceWriter} writes, so that a written trace audits as the run did.
     */
    public List<Operation> operations(String source) {
        return TraceOperations.of(trace, source);
    }

    /** The policy to audit the run with: {@code policy}, fitted to the scenario for the client ({@link ProbePolicy}). */
    public Policy policy(Policy policy) {
        return ProbePolicy.fit(policy, trace.scenario(), trace.client() == null ? TraceOperations.TOOL : trace.client());
    }

    /**
     * The probe's report of this run with {@code settings} (whose policy is a value, as
     * {@link RetryAudit#settings()} gives it; {@link #policy} fits it to the run): the trace's
     * {@link #operations} from {@code source} audited as a retry-trace input, then {@link #judge judged}.
     * {@code traceFile} is where the trace was written (null when it was not).
     */
    public Report audit(AuditSettings settings, String source, String traceFile) {
        Policy fitted = policy(settings.policy());
        Report audited;
        try {
            RetryAudit auditor = RetryAudit.of(settings.toBuilder().policy(fitted).build());
            AuditResult result = auditor.audit(AuditInput.operations(operations(source), source, InputFormat.RETRY_TRACE));
            audited = new Report(RetryAudit.NAME, RetryAudit.version(), result.inputs(), result.findings(),
                    settings.failOn(), auditor.rules(), result.baseline(), result.suppressed()).withTimelines(result.timelines());
        } catch (RetryAuditException e) {
            throw new IllegalStateException("settings whose policy is a value, and operations, read no file", e);
        }
        return judge(audited, source, fitted.retryAfterToleranceMs(), traceFile);
    }

    /**
     * The probe's report: {@code audited} (the audit of {@link #operations} from {@code source}, under a policy
     * whose Retry-After tolerance is {@code toleranceMs}) with the verdict's findings and what the probe
     * observed; {@code traceFile} is where the trace was written (null when it was not).
     */
    public Report judge(Report audited, String source, long toleranceMs, String traceFile) {
        List<Operation> ops = operations(source);
        String waitRule = ProbeVerdict.waitRule(trace.scenario());
        boolean earlyJudged = audited.rules().stream().map(RuleInfo::id).anyMatch(waitRule::equals);
        ProbeVerdict.Run run = new ProbeVerdict.Run(trace, client, timeoutSeconds, url,
                audited.findings().stream().map(Finding::rule).collect(Collectors.toSet()),
                earlyJudged, toleranceMs);
        ProbeFacts.ClientEnd end = new ProbeFacts.ClientEnd(client == null ? List.of() : command,
                client == null ? null : client.exitCode(), client != null && client.timedOut(), timeoutSeconds);
        return ProbeReport.judge(audited, ops.isEmpty() ? null : ops.get(0), source, run, end, traceFile);
    }
}

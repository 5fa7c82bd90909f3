package dev.retryaudit.probe;

import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.Location;
import dev.retryaudit.model.Operation;
import dev.retryaudit.report.ProbeFacts;
import dev.retryaudit.report.Report;
import java.util.ArrayList;
import java.util.List;

/** The report of a probe run: the audit of its trace, judged by {@link ProbeVerdict}, with what the probe observed. */
public final class ProbeReport {
    private ProbeReport() {
    }

    /**
     * {@code audited} (the audit of the run's trace, whose one operation is {@code op}, null when it had none, read
     * from {@code source}) with the probe's own findings and facts; {@code traceFile} is where the trace was
     * written (null when it was not).
     */
    public static Report judge(Report audited, Operation op, String source, ProbeVerdict.Run run,
            ProbeFacts.ClientEnd client, String traceFile) {
        ProbeVerdict.Verdict verdict = ProbeVerdict.judge(run);
        return withIssues(audited, verdict, op, source, run.trace())
                .withProbe(ProbeFactsBuilder.facts(run.url(), run.trace(), client, verdict, traceFile));
    }

    /**
     * The audit's report plus the probe's own findings, located at the attempt they are about (else
     * the trace); without the audit's findings when the verdict is not reliable.
     */
    private static Report withIssues(Report audited, ProbeVerdict.Verdict verdict, Operation op, String source,
            RecordedTrace trace) {
        // when the requests cannot be told apart, the audit of their mixture would blame one client for all
        List<Finding> findings = new ArrayList<>(verdict.reliable() ? audited.findings() : List.of());
        for (ProbeVerdict.Issue issue : verdict.issues()) {
            Attempt at = op == null ? null : op.attempts().stream().filter(a -> a.attemptId() == issue.sequence())
                    .findFirst().orElse(null);
            Location where = at != null ? at.location() : op != null ? op.location() : new Location(source, 0, 1, 1, "");
            findings.add(Finding.builder().rule(issue.rule().id()).severity(issue.rule().severity())
                    .operation(op == null ? null : op.id()).attempt(at == null ? null : at.attemptId())
                    .tool(op == null ? TraceOperations.TOOL : op.tool()).run(trace.runId()).message(issue.message())
                    .evidence(issue.evidence()).at(where).build());
        }
        return audited.withFindings(findings, ProbeCatalogue.all());
    }
}

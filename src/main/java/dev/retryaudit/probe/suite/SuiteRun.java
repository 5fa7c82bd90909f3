package dev.retryaudit.probe.suite;

import dev.retryaudit.api.AuditSettings;
import dev.retryaudit.model.Finding;
import dev.retryaudit.probe.ProbeRun;
import dev.retryaudit.probe.ProbeService;
import dev.retryaudit.probe.ProbeVerdict;
import dev.retryaudit.report.ProbeFacts;
import dev.retryaudit.report.Report;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Runs a suite: the client command once per scenario, each against a fresh probe server judged as
 * {@code probe} judges one scenario, and grades it in a {@link Scorecard}. A scenario that allows the
 * client to give up ({@link SuiteScenario#mayGiveUp}) is honoured when the client did not come back
 * at all and ended failing or was still waiting when it was stopped: it did not come early, which is
 * all such a scenario asks.
 */
public final class SuiteRun {
    /** The rules whose findings decide a violated verdict, the most telling first. */
    private static final List<String> DECIDING = List.of(ProbeVerdict.EARLY, ProbeVerdict.NOT_FOLLOWED.id(),
            ProbeVerdict.NO_BACKOFF, "timeout-replay/", "effect-verification/", "validation-repeat/");

    private SuiteRun() {
    }

    /**
     * What to run: the suite, the method and key header its scenarios answer to, the client command
     * ({@code {url}} not yet replaced), the timeout of every scenario (null for each scenario's own), the
     * port (0 for a free one), the most requests to record, and whether rows that test nothing pass.
     */
    public record Request(Suite suite, String method, String keyHeader, List<String> command, Long timeoutSeconds,
            int port, int maxRecorded, boolean allowNotTested) {
        public Request {
            Objects.requireNonNull(suite, "suite");
            command = List.copyOf(command);
        }
    }

    /**
     * Runs every scenario of the request with {@code settings} (whose policy is a value), saying on {@code log}
     * after {@code prefix} what each one is and how it ended.
     */
    public static Scorecard run(Request request, AuditSettings settings, PrintWriter log, String prefix)
            throws ProbeService.StartException, IOException, InterruptedException {
        List<ScorecardRow> rows = new ArrayList<>();
        String toolName = null;
        String toolVersion = null;
        int n = 0;
        for (SuiteScenario s : request.suite().scenarios()) {
            n++;
            String tag = prefix + "[" + n + "/" + request.suite().scenarios().size() + "] " + s.id() + ": ";
            long timeout = request.timeoutSeconds() == null ? s.timeoutSeconds() : request.timeoutSeconds();
            log.println(tag + s.describe());
            ProbeRun run = ProbeService.run(new ProbeService.Request(s.scenario(request.method(), request.keyHeader()),
                    request.command(), timeout, request.port(), request.maxRecorded()), log, tag);
            Report report = run.audit(settings, "<probe " + s.id() + ">", null);
            toolName = report.toolName();
            toolVersion = report.toolVersion();
            ScorecardRow row = row(s, report);
            log.println(tag + row.verdict().replace('_', ' ') + ": " + row.finding());
            log.flush();
            rows.add(row);
        }
        return new Scorecard(toolName, toolVersion, request.suite().name(), request.command(), rows,
                request.allowNotTested());
    }

    /**
     * The scorecard's row for scenario {@code s}, whose probe report is {@code report}: also how a client driven
     * in the test's own JVM (the JUnit extension) is graded, so that its verdict reads as the command's.
     */
    public static ScorecardRow row(SuiteScenario s, Report report) {
        ProbeFacts p = report.probe();
        List<Long> waits = p.requests().stream().skip(1).map(r -> r.gapMs() == null ? 0L : r.gapMs()).toList();
        ScorecardRow.Facts facts = new ScorecardRow.Facts(p.counts().attempts(), waits, p.client().exitCode(),
                p.client().timedOut());
        String client = client(p, waits);
        if (p.verdict().equals(ProbeFacts.NOT_TESTED) && gaveUp(s, p)) {
            return new ScorecardRow(s.id(), s.title(), s.describe(), client, ProbeFacts.HONOURED, null,
                    (p.client().timedOut() ? "was still waiting when stopped at " + p.client().timeoutSeconds() + " s"
                            : "gave up with exit code " + p.client().exitCode())
                            + " without coming back: the client may give up here, and did not come early", facts);
        }
        Finding deciding = deciding(report, p.verdict());
        return new ScorecardRow(s.id(), s.title(), s.describe(), client, p.verdict(),
                deciding == null ? null : deciding.rule(), deciding == null ? p.reason() : deciding.message(), facts);
    }

    /** Whether the client gave up in a scenario that allows it: one request, then a failing exit or still waiting. */
    private static boolean gaveUp(SuiteScenario s, ProbeFacts p) {
        return s.mayGiveUp() && p.counts().attempts() == 1 && p.counts().connections() <= 1
                && (p.client().timedOut() || p.client().exitCode() != null && p.client().exitCode() != 0);
    }

    /** The finding that decides the verdict: the probe's own when nothing was tested, else the most telling one. */
    private static Finding deciding(Report report, String verdict) {
        if (verdict.equals(ProbeFacts.HONOURED)) {
            return null;
        }
        if (verdict.equals(ProbeFacts.NOT_TESTED)) {
            return report.findings().stream().filter(f -> f.rule().equals(ProbeVerdict.NOT_TESTED.id())).findFirst()
                    .orElse(null);
        }
        for (String rule : DECIDING) {
            for (Finding f : report.findings()) {
                if (rule.endsWith("/") ? f.rule().startsWith(rule) : f.rule().equals(rule)) {
                    return f;
                }
            }
        }
        return report.findings().isEmpty() ? null : report.findings().get(0);
    }

    /** What the client did, in words: {@code 4 GETs, waits 3004, 1002, 4003 ms; exit 0}. */
    private static String client(ProbeFacts p, List<Long> waits) {
        int n = p.counts().attempts();
        String method = p.scenario().method();
        StringBuilder b = new StringBuilder().append(n).append(' ').append(method).append(n == 1 ? "" : "s");
        if (!waits.isEmpty()) {
            b.append(", waits ").append(String.join(", ", waits.stream().map(String::valueOf).toList())).append(" ms");
        }
        long keyed = p.requests().stream().filter(r -> r.sent().idempotencyKey() != null).count();
        if (p.scenario().stallSeconds() > 0 && n > 0) {
            b.append(keyed == n ? ", keyed" : keyed == 0 ? ", keyless" : ", key on " + keyed + " of " + n);
        }
        b.append("; ").append(p.client().timedOut() ? "killed at " + p.client().timeoutSeconds() + " s"
                : "exit " + p.client().exitCode());
        return b.toString();
    }
}

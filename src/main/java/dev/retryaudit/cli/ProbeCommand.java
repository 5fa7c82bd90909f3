package dev.retryaudit.cli;

import dev.retryaudit.input.InputException;
import dev.retryaudit.input.InputFormat;
import dev.retryaudit.input.InputSet;
import dev.retryaudit.input.Limits;
import dev.retryaudit.model.Policy;
import dev.retryaudit.probe.ClientRun;
import dev.retryaudit.probe.HeaderFormat;
import dev.retryaudit.probe.ProbeServer;
import dev.retryaudit.probe.RecordedRequest;
import dev.retryaudit.probe.RecordedTrace;
import dev.retryaudit.probe.Scenario;
import dev.retryaudit.probe.TraceWriter;
import dev.retryaudit.report.FailOn;
import dev.retryaudit.report.ProbeFacts;
import dev.retryaudit.report.Report;
import dev.retryaudit.report.ReportWriter;
import dev.retryaudit.rules.RuleSelection;
import dev.retryaudit.text.Escaping;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.BindException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code retry-audit probe}: serves a local Retry-After fixture, runs the client under test against
 * it, and audits the trace it recorded like any retry-trace input.
 */
@Command(name = "probe", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class, sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
            "Run a real HTTP client against a local Retry-After fixture and audit what it did.",
            "The server listens on 127.0.0.1. The first N GETs get STATUS with a Retry-After header, later ones 200, "
                + "and GETs past --max-requests 410; other methods get 405. COMMAND runs without a shell, with every "
                + "{url} in its arguments replaced by the probe URL, which is also in its environment as "
                + ClientRun.URL_VARIABLE + ". Its output goes to stderr; the report goes to stdout. "
                + "Without COMMAND the probe serves until --timeout, for a client started by hand."},
        footerHeading = "%nExample:%n",
        footer = "  retry-audit probe --status 503 --delay 2 -- curl -sS --retry 3 {url}")
final class ProbeCommand implements Callable<Integer> {
    /** The name under which a trace that was not written to a file is reported. */
    static final String SOURCE = "<probe>";

    private static final String EARLY_RULE = "retry-after/early";

    private final Streams io;

    @Option(names = "--status", paramLabel = "STATUS", defaultValue = "429",
            description = "Status of the failing responses: 429 or 503 (default: ${DEFAULT-VALUE}).")
    int status;

    @Option(names = "--failures", paramLabel = "N", defaultValue = "2",
            description = "How many GETs fail before the first 200, 1..10 (default: ${DEFAULT-VALUE}).")
    int failures;

    @Option(names = "--delay", paramLabel = "SECONDS", defaultValue = "2",
            description = "The Retry-After delay, 0..600 seconds (default: ${DEFAULT-VALUE}).")
    long delay;

    @Option(names = "--header-format", paramLabel = "FORMAT", defaultValue = "seconds",
            completionCandidates = HeaderFormats.class,
            description = "Retry-After as ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    String headerFormat;

    @Option(names = "--max-requests", paramLabel = "N", defaultValue = "32",
            description = "GETs answered before the probe answers 410, more than --failures and at most 10000 "
                    + "(default: ${DEFAULT-VALUE}).")
    int maxRequests;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "60",
            description = "Kill the client (and its child processes) after this long, 1..86400; without COMMAND, "
                    + "serve this long (default: ${DEFAULT-VALUE}).")
    long timeout;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "0",
            description = "Port on 127.0.0.1 to listen on; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--trace-out", paramLabel = "FILE",
            description = "Also write the recorded trace (retry-trace format) to FILE; the report then names FILE.")
    Path traceOut;

    @Parameters(paramLabel = "COMMAND", arity = "0..*",
            description = "The client to run, with its arguments; {url} is replaced by the probe URL.")
    List<String> command = new ArrayList<>();

    @Mixin
    AuditOptions options;

    ProbeCommand(Streams io) {
        this.io = io;
    }

    /** The command line of this subcommand: options end at COMMAND, whose own options are its business. */
    static CommandLine commandLine(Streams io) {
        return new CommandLine(new ProbeCommand(io)).setStopAtPositional(true);
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        Scenario scenario = scenario();
        range("--timeout", timeout, 1, 86_400);
        range("--port", port, 0, 65_535);
        ReportWriter writer = options.writer(io);
        FailOn threshold = options.failOn();
        options.checkRuleNames();
        options.checkTarget("--output", options.output, traceOut == null ? List.of() : List.of(traceOut));
        options.checkTarget("--trace-out", traceOut, List.of());
        Limits limits = Limits.DEFAULTS;
        Policy policy;
        try {
            policy = options.policy(limits);
        } catch (InputException e) {
            return options.inputError(io, e, writer);
        }
        RuleSelection rules = options.rules(policy);
        if (traceOut != null && !traceOutPlace()) {
            return ExitCode.CANT_WRITE.code();
        }

        Observed seen = observe(scenario, limits.attemptsPerOperation());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TraceWriter.write(seen.trace(), bytes);
        InputSet.Source source = new InputSet.Source(SOURCE, null);
        if (traceOut != null) {
            if (!writeTrace(bytes.toByteArray())) {
                return ExitCode.CANT_WRITE.code();
            }
            source = InputSet.Source.of(traceOut.toString());
        }
        Report result = audit(new Auditor(InputFormat.RETRY_TRACE, limits, policy, rules, threshold), source,
                new ByteArrayInputStream(bytes.toByteArray()));
        ProbeFacts facts = facts(seen, rules, result);
        say(seen.client(), facts);
        Report withFacts = result.withProbe(facts);
        int verdict = withFacts.passed() ? ExitCode.CLEAN.code() : ExitCode.FINDINGS.code();
        return options.output(io).write(o -> writer.write(withFacts, o), verdict);
    }

    /** What one probe run saw: the URL it served, the trace it recorded, and how the client ended (null without one). */
    private record Observed(String url, RecordedTrace trace, ClientRun.Result client) {
    }

    /** Serves the scenario while the client runs (or, without one, until the timeout), then stops. */
    private Observed observe(Scenario scenario, int maxRecorded) throws IOException, InterruptedException {
        try (ProbeServer server = listen(scenario, maxRecorded)) {
            String url = server.url();
            ClientRun.Result client = null;
            if (command.isEmpty()) {
                io.err().println(VersionInfo.NAME + ": probe: serving " + url + " for " + timeout + " s");
                Thread.sleep(timeout * 1000);
            } else {
                client = runClient(url);
            }
            return new Observed(url, server.trace(), client);
        }
    }

    private Scenario scenario() {
        if (status != 429 && status != 503) {
            throw options.usage("invalid value for option '--status': expected 429 or 503");
        }
        range("--failures", failures, 1, 10);
        range("--delay", delay, 0, 600);
        range("--max-requests", maxRequests, failures + 1, 10_000);
        HeaderFormat format = options.choice("--header-format", headerFormat, HeaderFormat.parse(headerFormat),
                HeaderFormat.ids());
        return new Scenario(status, failures, delay, format, maxRequests);
    }

    private void range(String option, long value, long min, long max) {
        if (value < min || value > max) {
            throw options.usage("invalid value for option '" + option + "': must be between " + min + " and " + max
                    + (option.equals("--max-requests") ? " (more than --failures)" : ""));
        }
    }

    private ProbeServer listen(Scenario scenario, int maxRecorded) throws IOException {
        try {
            return ProbeServer.start(scenario, port, maxRecorded);
        } catch (BindException e) {
            throw options.usage("cannot listen on 127.0.0.1:" + port + ": " + e.getMessage());
        }
    }

    private ClientRun.Result runClient(String url) throws InterruptedException {
        List<String> expanded = ClientRun.expand(command, url);
        io.err().println(VersionInfo.NAME + ": probe: " + url + ": running "
                + Escaping.controls(String.join(" ", expanded)));
        try {
            return ClientRun.run(expanded, url, timeout * 1000, io.err());
        } catch (IOException e) {
            throw options.usage("cannot run " + Escaping.controls(expanded.get(0)) + ": "
                    + Escaping.controls(String.valueOf(e.getMessage())));
        }
    }

    /** Tells the person at the terminal what happened, since stdout holds the report. */
    private void say(ClientRun.Result client, ProbeFacts facts) {
        String prefix = VersionInfo.NAME + ": probe: ";
        if (client != null && client.timedOut()) {
            io.err().println(prefix + "the client was still running after " + timeout
                    + " s (--timeout) and was killed with its child processes");
        }
        io.err().println(prefix + facts.describe());
        if (facts.attempts() == 0 && facts.otherRequests() == 0) {
            io.err().println(prefix + "warning: no request reached " + facts.url() + "; nothing was tested");
        }
    }

    /** Refuses a --trace-out that cannot be written before the client runs, not after. */
    private boolean traceOutPlace() {
        if (traceOut.toString().equals("-")) {
            throw options.usage("--trace-out names a file; the report itself goes to standard output");
        }
        Path dir = traceOut.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            return cannotWriteTrace("no such directory");
        }
        if (Files.isDirectory(traceOut)) {
            return cannotWriteTrace("is a directory");
        }
        return true;
    }

    private boolean writeTrace(byte[] bytes) {
        try {
            AtomicFile.write(traceOut, out -> out.write(bytes));
            return true;
        } catch (IOException e) {
            return cannotWriteTrace(String.valueOf(e.getMessage()));
        }
    }

    private boolean cannotWriteTrace(String why) {
        io.err().println(VersionInfo.NAME + ": error: cannot write the trace to " + Escaping.controls(traceOut.toString())
                + ": " + Escaping.controls(why));
        return false;
    }

    private Report audit(Auditor auditor, InputSet.Source source, InputStream trace) {
        try {
            return auditor.audit(List.of(source), trace);
        } catch (InputException e) {
            throw new IllegalStateException("the probe's own trace was rejected: " + e.diagnostic(), e);
        }
    }

    private ProbeFacts facts(Observed seen, RuleSelection rules, Report result) {
        Scenario s = seen.trace().scenario();
        ClientRun.Result client = seen.client();
        return new ProbeFacts(seen.url(), s.status(), s.failures(), s.delaySeconds(), s.headerFormat().id(),
                client == null ? List.of() : ClientRun.expand(command, seen.url()),
                client == null ? null : client.exitCode(), client != null && client.timedOut(), timeout,
                seen.trace().attempts().size(), seen.trace().otherRequests().size(), seen.trace().reachedSuccess(),
                honoured(seen.trace(), rules, result));
    }

    /** False when a retry came early; true when retries followed Retry-After and none came early; else unknown. */
    private static Boolean honoured(RecordedTrace trace, RuleSelection rules, Report result) {
        if (result.findings().stream().anyMatch(f -> f.rule().equals(EARLY_RULE))) {
            return false;
        }
        boolean judged = rules.enabled().stream().anyMatch(r -> r.info().id().equals(EARLY_RULE));
        List<RecordedRequest> gets = trace.attempts();
        boolean retriedAfterHeader = false;
        for (int i = 0; i + 1 < gets.size(); i++) {
            retriedAfterHeader |= gets.get(i).retryAfter() != null;
        }
        return judged && retriedAfterHeader ? Boolean.TRUE : null;
    }

    /** The --header-format values, for help. */
    static final class HeaderFormats implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return HeaderFormat.ids().iterator();
        }
    }
}

package dev.retryaudit.cli;

import dev.retryaudit.api.AuditSettings;
import dev.retryaudit.api.ExitCode;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.model.Limits;
import dev.retryaudit.probe.ClientRun;
import dev.retryaudit.probe.HeaderFormat;
import dev.retryaudit.probe.ProbeRun;
import dev.retryaudit.probe.ProbeService;
import dev.retryaudit.probe.RecordedTrace;
import dev.retryaudit.probe.Scenario;
import dev.retryaudit.probe.TraceWriter;
import dev.retryaudit.probe.suite.Scorecard;
import dev.retryaudit.probe.suite.ScorecardFormat;
import dev.retryaudit.probe.suite.Suite;
import dev.retryaudit.probe.suite.SuiteRun;
import dev.retryaudit.report.ProbeFacts;
import dev.retryaudit.report.Report;
import dev.retryaudit.report.ReportWriter;
import dev.retryaudit.text.Escaping;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code retry-audit probe}: serves a local Retry-After fixture, runs the client under test against
 * it, and audits the trace it recorded like any retry-trace input.
 */
@Command(addMethodSubcommands = false, name = "probe", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class, sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
            "Run a real HTTP client against a local fixture and judge what it did: honoured, violated or not tested.",
            "The server listens on 127.0.0.1. The first N requests of --method get STATUS with a Retry-After taken in "
                + "turn from the --delay schedule (or, with --stall, are committed and held past the client's timeout), "
                + "later ones 200, and those past --max-requests 410; other methods get 405. COMMAND runs without a "
                + "shell, with every {url} in its arguments replaced by the probe URL, which is also in its "
                + "environment as " + ClientRun.URL_VARIABLE + ". Its output goes to stderr, each line marked "
                + "'" + ClientRun.MARK + "'; the report goes to stdout. A run that tests nothing (no request, no "
                + "retry, a client killed or failed before retrying) exits 2 with a probe/not-tested finding. "
                + "Without COMMAND the probe serves until --timeout, for a client started by hand.",
            "With --suite NAME the client runs once per scenario of a built-in suite (http, writes, otlp) and the "
                + "probe prints a scorecard: one row per scenario, and exit 0 only when every scenario was honoured "
                + "(rows that tested nothing fail unless --allow-not-tested)."},
        footerHeading = "%nExamples:%n",
        footer = {"  retry-audit probe -- curl -sS --retry 5 {url}",
            "  retry-audit probe --suite http --scorecard junit --output probe.xml -- curl -sS --retry 5 {url}",
            "  retry-audit probe --method POST --stall 3 --failures 1 -- curl -sS -m 1 --retry 2 --retry-all-errors "
                    + "-H 'Idempotency-Key: k-1' -d '{}' {url}"})
final class ProbeCommand implements Callable<Integer> {
    /** The name under which a trace that was not written to a file is reported. */
    static final String SOURCE = "<probe>";

    private static final String PREFIX = VersionInfo.NAME + ": probe: ";

    /** The scenario options a suite brings itself: refused beside --suite. */
    private static final List<String> SCENARIO_OPTIONS = List.of("--status", "--failures", "--delay", "--header-format",
            "--stall", "--no-dedupe", "--max-requests", "--trace-out", "--format");

    private final Streams io;

    @Spec
    CommandSpec spec;

    @Option(names = "--suite", paramLabel = "NAME", completionCandidates = SuiteNames.class,
            description = "Run the client once per scenario of a built-in suite, ${COMPLETION-CANDIDATES}, and print a "
                    + "scorecard instead of a report.")
    String suite;

    @Option(names = "--scorecard", paramLabel = "FORMAT", defaultValue = "text",
            converter = Choice.ScorecardFormats.class, completionCandidates = Choice.ScorecardFormats.class,
            description = "With --suite, the scorecard's format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    ScorecardFormat scorecard;

    @Option(names = "--allow-not-tested", negatable = false,
            description = "With --suite, let scenarios that tested nothing pass (by default they fail the scorecard).")
    boolean allowNotTested;

    @Option(names = "--method", paramLabel = "METHOD", defaultValue = "GET",
            description = "The method the scenario answers, any HTTP method (default: ${DEFAULT-VALUE}).")
    String method;

    @Option(names = "--status", paramLabel = "STATUS", defaultValue = "429",
            description = "Status of the failing responses: 429 or 503 with Retry-After, or 422 without, for a "
                    + "request that must change before it is sent again (default: ${DEFAULT-VALUE}).")
    int status;

    @Option(names = "--failures", paramLabel = "N", defaultValue = "3",
            description = "How many requests fail (or are held) before the first 200, " + Scenario.MIN_FAILURES + ".."
                    + Scenario.MAX_FAILURES + " (default: ${DEFAULT-VALUE}).")
    int failures;

    @Option(names = "--delay", paramLabel = "DELAYS", defaultValue = "3,1,4",
            description = "The Retry-After delays in seconds, 0.." + Scenario.MAX_DELAY_SECONDS + " each, separated by commas and "
                    + "used in turn; one value asks for the same delay every time (default: ${DEFAULT-VALUE}).")
    String delay;

    @Option(names = "--header-format", paramLabel = "FORMAT", defaultValue = "seconds",
            converter = Choice.HeaderFormats.class, completionCandidates = Choice.HeaderFormats.class,
            description = "How the wait is asked for: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    HeaderFormat headerFormat;

    @Option(names = "--stall", paramLabel = "SECONDS", defaultValue = "0",
            description = "Hold the failing requests this long, 0.." + Scenario.MAX_STALL_SECONDS + " s, after committing them, instead of answering "
                    + "them with Retry-After (default: ${DEFAULT-VALUE}, no stall).")
    long stall;

    @Option(names = "--key-header", paramLabel = "NAME", defaultValue = "Idempotency-Key",
            description = "The request header that carries the idempotency key (default: ${DEFAULT-VALUE}).")
    String keyHeader;

    @Option(names = "--no-dedupe", negatable = false,
            description = "Commit every write, even one whose key was already committed (by default the server "
                    + "replays the first result instead).")
    boolean noDedupe;

    @Option(names = "--max-requests", paramLabel = "N", defaultValue = "32",
            description = "Requests of the method answered before the probe answers 410, more than --failures and at "
                    + "most " + Scenario.MAX_REQUESTS + " (default: ${DEFAULT-VALUE}).")
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
        CommandLine cl = new CommandLine(new ProbeCommand(io)).setStopAtPositional(true);
        AuditOptions.addSettings(cl.getCommandSpec());
        return cl;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (suite != null) {
            return suite();
        }
        if (spec.commandLine().getParseResult().hasMatchedOption("--scorecard") || allowNotTested) {
            throw options.usage("--scorecard and --allow-not-tested need --suite");
        }
        Scenario scenario = scenario();
        range("--timeout", timeout, 1, 86_400);
        range("--port", port, 0, 65_535);
        Limits limits = Limits.DEFAULTS;
        AuditSettings settings = options.build(options.settings(limits, true));
        options.checkTarget("--output", options.output, traceOut == null ? List.of() : List.of(traceOut));
        options.checkTarget("--trace-out", traceOut, List.of());
        try {
            settings = RetryAudit.of(settings).settings();
        } catch (RetryAuditException e) {
            return options.inputError(io, e);
        }
        if (traceOut != null && !traceOutPlace()) {
            return ExitCode.CANT_WRITE.code();
        }
        ProbeRun run = run(new ProbeService.Request(scenario, command, timeout, port, limits.attemptsPerOperation()));
        String source = SOURCE;
        if (traceOut != null) {
            if (!writeTrace(run.trace())) {
                return ExitCode.CANT_WRITE.code();
            }
            source = traceOut.toString();
        }
        Report judged = run.audit(settings, source, traceOut == null ? null : traceOut.toString());
        say(run.client(), judged.probe());
        int code = judged.passed() ? ExitCode.CLEAN.code() : ExitCode.FINDINGS.code();
        ReportWriter writer = ReportWriter.of(options.format(), options.colour(io));
        return options.output(io).write(o -> writer.write(judged, o), code);
    }

    /** Runs the suite and writes its scorecard: exit 0 when it passed, 2 when it did not. */
    private int suite() throws IOException, InterruptedException {
        Suite chosen = Suite.builtIn(suite);
        if (chosen == null) {
            throw options.usage("invalid value for option '--suite': expected one of " + String.join(", ", Suite.NAMES));
        }
        for (String option : SCENARIO_OPTIONS) {
            if (spec.commandLine().getParseResult().hasMatchedOption(option)) {
                throw options.usage(option + " cannot be used with --suite: each scenario of the suite sets its own"
                        + (option.equals("--format") ? " (the scorecard's format is --scorecard)" : ""));
            }
        }
        if (command.isEmpty()) {
            throw options.usage("--suite needs a COMMAND to run once per scenario");
        }
        String suiteMethod = spec.commandLine().getParseResult().hasMatchedOption("--method") ? method : chosen.method();
        if (!Scenario.isToken(suiteMethod) || !Scenario.isToken(keyHeader)) {
            throw options.usage("invalid value for option '--method' or '--key-header': expected an HTTP token");
        }
        Long everyTimeout = spec.commandLine().getParseResult().hasMatchedOption("--timeout") ? timeout : null;
        range("--timeout", timeout, 1, 86_400);
        range("--port", port, 0, 65_535);
        Limits limits = Limits.DEFAULTS;
        AuditSettings settings = options.build(options.settings(limits, true));
        options.checkTarget("--output", options.output, List.of());
        try {
            settings = RetryAudit.of(settings).settings();
        } catch (RetryAuditException e) {
            return options.inputError(io, e);
        }
        Scorecard card;
        try {
            card = SuiteRun.run(new SuiteRun.Request(chosen, suiteMethod, keyHeader, command, everyTimeout, port,
                    limits.attemptsPerOperation(), allowNotTested), settings, io.err(), PREFIX);
        } catch (ProbeService.StartException e) {
            throw options.usage(e.getMessage());
        }
        io.err().println(PREFIX + "suite " + chosen.name() + ": " + card.total());
        int code = card.passed() ? ExitCode.CLEAN.code() : ExitCode.FINDINGS.code();
        return options.output(io).write(o -> scorecard.write(card, o), code);
    }

    /** The suite names, for help and completion. */
    static final class SuiteNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return Suite.NAMES.iterator();
        }
    }

    private ProbeRun run(ProbeService.Request request) throws IOException, InterruptedException {
        try {
            return ProbeService.run(request, io.err(), PREFIX);
        } catch (ProbeService.StartException e) {
            throw options.usage(e.getMessage());
        }
    }

    private Scenario scenario() {
        if (!Scenario.isToken(method)) {
            throw options.usage("invalid value for option '--method': expected an HTTP method such as GET or POST");
        }
        if (!Scenario.STATUSES.contains(status)) {
            throw options.usage("invalid value for option '--status': expected 429, 503 or 422");
        }
        range("--failures", failures, Scenario.MIN_FAILURES, Scenario.MAX_FAILURES);
        List<Long> delays = delays();
        range("--stall", stall, 0, Scenario.MAX_STALL_SECONDS);
        range("--max-requests", maxRequests, failures + 1, Scenario.MAX_REQUESTS);
        if (!Scenario.isToken(keyHeader)) {
            throw options.usage("invalid value for option '--key-header': expected a header name such as Idempotency-Key");
        }
        return new Scenario(method, status, failures, delays, headerFormat, maxRequests, stall, !noDedupe, keyHeader);
    }

    /** The --delay schedule: comma-separated whole seconds within the scenario's bounds. */
    private List<Long> delays() {
        List<Long> delays = new ArrayList<>();
        for (String part : delay.split(",", -1)) {
            long d;
            try {
                d = Long.parseLong(part.strip());
            } catch (NumberFormatException e) {
                throw options.usage("invalid value for option '--delay': expected whole seconds separated by commas,"
                        + " such as 3,1,4");
            }
            range("--delay", d, 0, Scenario.MAX_DELAY_SECONDS);
            delays.add(d);
        }
        if (delays.size() > Scenario.MAX_DELAYS) {
            throw options.usage("invalid value for option '--delay': at most " + Scenario.MAX_DELAYS + " delays");
        }
        return delays;
    }

    private void range(String option, long value, long min, long max) {
        if (value < min || value > max) {
            throw options.usage("invalid value for option '" + option + "': must be between " + min + " and " + max
                    + (option.equals("--max-requests") ? " (more than --failures)" : ""));
        }
    }

    /** Tells the person at the terminal what happened, since stdout holds the report. */
    private void say(ClientRun.Result client, ProbeFacts facts) {
        if (client != null && client.timedOut()) {
            io.err().println(PREFIX + "the client was still running after " + timeout
                    + " s (--timeout) and was killed with its child processes");
        }
        io.err().println(PREFIX + Escaping.controls(facts.describe()));
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

    private boolean writeTrace(RecordedTrace trace) {
        try {
            AtomicFile.write(traceOut, out -> TraceWriter.write(trace, out));
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
}

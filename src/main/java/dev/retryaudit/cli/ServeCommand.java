package dev.retryaudit.cli;

import dev.retryaudit.api.AuditResult;
import dev.retryaudit.api.AuditSettings;
import dev.retryaudit.api.ExitCode;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.api.Setting;
import dev.retryaudit.api.split.InputRejection;
import dev.retryaudit.model.Limits;
import dev.retryaudit.serve.FindingLines;
import dev.retryaudit.serve.Serve;
import dev.retryaudit.text.Escaping;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code retry-audit serve}: an OTLP/HTTP (and Zipkin) receiver that audits operations as their spans
 * go idle, writes each finding as a JSON line, and at the end (a signal, or {@code --until-idle})
 * audits what is still open and exits 0 or 2 as {@code audit} does.
 */
@Command(addMethodSubcommands = false, name = "serve", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class, sortOptions = false,
        usageHelpAutoWidth = true,
        description = {"Receive traces over OTLP/HTTP (POST /v1/traces, protobuf or JSON) and Zipkin v2 "
                + "(POST /api/v2/spans), link their spans into operations as audit does, and audit each linking "
                + "context once it has been idle for --idle plus the longest Retry-After seen in it. Each finding "
                + "is written as it is made, as one JSON line (the JSON report's finding), to --output (appended) or "
                + "stdout. GET /metrics serves Prometheus metrics, GET /healthz answers ok.",
            "With -- COMMAND it runs the tests with their exporters pointed at the receiver and ends once they "
                + "have exited and flushed; else on SIGTERM, SIGINT or --until-idle. Then it audits everything still "
                + "open, judges the cross-operation rules, writes the whole report to stdout when --format is given, "
                + "and exits 0 or 2 by --fail-on, or with COMMAND's own code when that failed."},
        footerHeading = "%nExamples:%n",
        footer = {"  retry-audit serve --format github -- mvn -B verify -DargLine=-javaagent:opentelemetry-javaagent.jar",
            "  retry-audit serve --listen 0.0.0.0:4318 --output findings.jsonl"})
final class ServeCommand implements Callable<Integer> {
    private static final String DEFAULT_LISTEN = "127.0.0.1:4318";

    private final Streams io;

    @Option(names = "--listen", paramLabel = "HOST:PORT", defaultValue = DEFAULT_LISTEN,
            description = "Address to listen on; another than loopback must be named (default: ${DEFAULT-VALUE}).")
    String listen;

    @Option(names = "--grace", paramLabel = "DURATION", defaultValue = "2s",
            description = "With COMMAND: after it exits, wait until no trace has been posted for DURATION (its "
                    + "exporters' last flush), at most 30 s (default: ${DEFAULT-VALUE}).")
    String grace;

    @Option(names = "--until-idle", paramLabel = "DURATION",
            description = "Without COMMAND: end once no trace has been posted for DURATION after the first span "
                    + "(10s, 500ms, 2m), the weaker form of a gate; default: run until SIGTERM or SIGINT.")
    String untilIdle;

    @Option(names = "--first-span-within", paramLabel = "DURATION", defaultValue = "5m",
            description = "With --until-idle: end the run (as one that received no span) if no span has come "
                    + "within DURATION of the start (default: ${DEFAULT-VALUE}).")
    String firstSpanWithin;

    @Option(names = "--idle", paramLabel = "DURATION", defaultValue = "30s",
            description = "How long a linking context must get no span before its operations are audited, plus "
                    + "the longest Retry-After seen in it (default: ${DEFAULT-VALUE}).")
    String idle;

    @Option(names = "--read-timeout", paramLabel = "DURATION", defaultValue = "30s",
            description = "Close a connection that sends nothing for DURATION while a request is read, or between "
                    + "requests (default: ${DEFAULT-VALUE}).")
    String readTimeout;

    @Option(names = "--max-connections", paramLabel = "N", defaultValue = "256",
            description = "Most connections open at once; more wait to be accepted (default: ${DEFAULT-VALUE}).")
    int maxConnections;

    @Option(names = "--max-held-spans", paramLabel = "N", defaultValue = "1000000",
            description = "Most attempt spans held before exports are answered 503 with Retry-After "
                    + "(default: 1,000,000).")
    long maxHeldSpans;

    @Option(names = "--temp-dir", paramLabel = "DIR",
            description = "With --format: the directory where the findings are kept until the report is written, in "
                    + "a file deleted at the end (default: $TMPDIR, else the JVM's java.io.tmpdir, /tmp).")
    Path tempDir;

    @Parameters(paramLabel = "COMMAND", arity = "0..*",
            description = "The test command to run, after --, with its traces sent to the receiver (its output goes "
                    + "to stderr); the run ends when it has exited and its exporters have flushed, and exits with "
                    + "its code when that is not 0, else with the audit's.")
    List<String> command = new ArrayList<>();

    @Mixin
    AuditOptions options;

    ServeCommand(Streams io) {
        this.io = io;
    }

    /**
     * The command line of this subcommand: options end at COMMAND, whose own options are its business; the shared
     * options that mean something else here say so in the help.
     */
    static CommandLine commandLine(Streams io) {
        CommandLine cl = new CommandLine(new ServeCommand(io)).setStopAtPositional(true);
        CommandSpec spec = cl.getCommandSpec();
        AuditOptions.addSettings(spec);
        SettingOptions.after(spec, "--disable", Setting.LIMIT_BYTES, Setting.LIMIT_OPERATIONS, Setting.LIMIT_ATTEMPTS,
                Setting.LIMIT_STRING, Setting.LIMIT_DEPTH);
        describe(spec, "--output", "Append each finding, as it is made, as one JSON line to FILE (default: stdout; "
                + "none with --format, whose report goes to stdout). A write that fails ends the run with 74.");
        describe(spec, "--limit-bytes", "Most bytes of one request's body, as sent and after decompression "
                + "(default: 20 MiB); a larger one is answered 413.");
        return cl;
    }

    private static void describe(CommandSpec spec, String name, String description) {
        OptionSpec old = spec.findOption(name);
        spec.remove(old);
        spec.addOption(OptionSpec.builder(old).description(description).build());
    }

    @Override
    public Integer call() {
        Limits d = Limits.DEFAULTS;
        Limits requests = new Limits(Serve.REQUEST_BYTES, d.operations(), d.attemptsPerOperation(), d.stringLength(),
                d.depth());
        AuditSettings checked = options.build(options.settings(requests, false));
        Limits limits = checked.limits();
        boolean report = options.spec.commandLine().getParseResult().hasMatchedOption("--format");
        if (maxHeldSpans < 1) {
            throw options.usage("invalid value for option '--max-held-spans': must be 1 or more");
        }
        if (maxConnections < 1) {
            throw options.usage("invalid value for option '--max-connections': must be 1 or more");
        }
        Duration read = duration("--read-timeout", readTimeout);
        if (read.isZero()) {
            throw options.usage("invalid value for option '--read-timeout': must be more than 0");
        }
        Serve.Settings settings = new Serve.Settings(address(), duration("--idle", idle), maxHeldSpans, limits,
                new Serve.Connections(read, maxConnections), report ? spillDirectory() : null);
        if (!command.isEmpty() && untilIdle != null) {
            throw options.usage("--until-idle cannot be used with COMMAND: the run ends when COMMAND has exited");
        }
        Duration quiet = untilIdle == null ? null : duration("--until-idle", untilIdle);
        Duration firstWithin = duration("--first-span-within", firstSpanWithin);
        Duration graceTime = duration("--grace", grace);
        options.checkTarget("--output", options.output, List.of());
        RetryAudit auditor;
        try {
            auditor = RetryAudit.of(checked);
        } catch (RetryAuditException e) {
            return options.inputError(io, e);
        }
        OutputStream lines;
        try {
            lines = options.output == null ? (report ? OutputStream.nullOutputStream() : io.stdout())
                    : new BufferedOutputStream(Files.newOutputStream(options.output, StandardOpenOption.CREATE,
                            StandardOpenOption.APPEND, StandardOpenOption.WRITE));
        } catch (IOException e) {
            io.err().println(VersionInfo.NAME + ": error: cannot open " + Escaping.controls(options.output.toString())
                    + " to append findings: " + Escaping.controls(String.valueOf(e.getMessage())));
            return ExitCode.CANT_WRITE.code();
        }
        // With --format and no --output the findings come out in the report alone: no line is made.
        FindingLines findings = options.output == null && report ? FindingLines.none() : new FindingLines(lines);
        Serve serve;
        try {
            serve = Serve.start(auditor, settings, findings, line -> {
                io.err().println(line);
                io.err().flush();
            });
        } catch (BindException e) {
            throw options.usage("invalid value for option '--listen': cannot listen on " + listen + ": "
                    + Escaping.controls(String.valueOf(e.getMessage())));
        } catch (IOException e) {
            io.err().println(VersionInfo.NAME + ": error: cannot listen on " + listen + ": "
                    + Escaping.controls(String.valueOf(e.getMessage())));
            return ExitCode.SOFTWARE.code();
        }
        findings.onFailure(serve::stop);
        io.err().println(VersionInfo.NAME + ": listening on http://" + hostPort(serve.address())
                + " (POST /v1/traces, POST /api/v2/spans, GET /metrics, GET /healthz)");
        String exposed = exposure(serve.address());
        if (exposed != null) {
            io.err().println(exposed);
        }
        io.err().flush();
        Integer commandExit;
        Signals signals = Signals.onStop(serve::stop);
        try {
            commandExit = command.isEmpty() ? await(serve, quiet, firstWithin) : TestCommand.run(command, serve,
                    graceTime, io.err());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            commandExit = null;
        } catch (IOException e) {
            try {
                serve.finish();
            } catch (IOException notKept) {
                // No report comes of a run whose command could not start: what it kept is not wanted.
            }
            io.err().println(VersionInfo.NAME + ": error: cannot run " + Escaping.controls(command.get(0)) + ": "
                    + Escaping.controls(String.valueOf(e.getMessage())));
            return ExitCode.NO_INPUT.code();
        } finally {
            signals.restore();
        }
        AuditResult finished;
        IOException notKept = null;
        try {
            finished = serve.finish();
        } catch (IOException e) {
            finished = null;
            notKept = e;
        }
        AuditResult result = finished;
        try {
            lines.flush();
            if (options.output != null) {
                lines.close();
            }
        } catch (IOException e) {
            // Reported below with the first failed write, if any.
        }
        if (findings.failure() != null) {
            io.err().println(VersionInfo.NAME + ": error: cannot write the findings to "
                    + (options.output == null ? "standard output" : Escaping.controls(options.output.toString())) + ": "
                    + Escaping.controls(String.valueOf(findings.failure().getMessage())));
            return ExitCode.CANT_WRITE.code();
        }
        if (notKept != null) {
            io.err().println(VersionInfo.NAME + ": error: cannot keep the findings for the report in "
                    + Escaping.controls(String.valueOf(notKept.getMessage())) + "; no report is written");
            return ExitCode.CANT_WRITE.code();
        }
        if (serve.spansReceived() == 0 && commandExit != null && commandExit != 0) {
            return commandExit;
        }
        if (serve.spansReceived() == 0) {
            // A gate that heard nothing must not pass: no exporter reached the receiver, as an empty file is no input.
            RetryAuditException none = InputRejection.rejected(Serve.SOURCE, 1, 1,
                    "no span was received in the run: no export reached POST /v1/traces or POST /api/v2/spans, or "
                    + "each was refused; check the exporters' endpoint and give --until-idle more than their batch "
                    + "delay");
            if (!report) {
                io.err().println(none.getMessage());
                return ExitCode.of(none).code();
            }
            return options.inputError(io, none);
        }
        int verdict = commandExit != null && commandExit != 0 ? commandExit
                : auditor.passed(result) ? ExitCode.CLEAN.code() : ExitCode.FINDINGS.code();
        if (!report) {
            return verdict;
        }
        boolean colour = options.colour(io);
        return new ReportOutput(null, io).write(o -> auditor.writeReport(result, colour, o), verdict);
    }

    /**
     * Where a report's findings are kept while the run lasts: {@code --temp-dir}, else the default
     * ({@link #defaultTempDir}); a usage error when it is not a directory this process can write to.
     */
    private Path spillDirectory() {
        Path dir = tempDir != null ? tempDir : defaultTempDir(System.getenv(), System.getProperty("java.io.tmpdir"));
        if (!Files.isDirectory(dir) || !Files.isWritable(dir)) {
            throw options.usage("invalid value for option '--temp-dir': " + Escaping.controls(dir.toString())
                    + " is not a directory this process can write to" + (tempDir == null
                            ? " (the default, from " + (tempDirVariable(System.getenv()) ? "TMPDIR" : "java.io.tmpdir")
                                    + "); give --temp-dir"
                            : ""));
        }
        return dir;
    }

    /** The temporary directory of the environment: {@code TMPDIR} when it is set and not empty, else {@code javaTmpDir}. */
    static Path defaultTempDir(Map<String, String> env, String javaTmpDir) {
        return Path.of(tempDirVariable(env) ? env.get("TMPDIR") : javaTmpDir);
    }

    private static boolean tempDirVariable(Map<String, String> env) {
        String tmp = env.get("TMPDIR");
        return tmp != null && !tmp.isBlank();
    }

    /** Waits for a signal or, with {@code quiet}, for that long without an export after the first span; no command ran. */
    private static Integer await(Serve serve, Duration quiet, Duration firstWithin) throws InterruptedException {
        if (quiet == null) {
            serve.awaitStop();
        } else {
            serve.awaitQuiet(quiet, firstWithin);
        }
        return null;
    }

    private InetSocketAddress address() {
        int colon = listen.lastIndexOf(':');
        String host = colon < 0 ? "" : listen.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(listen.substring(colon + 1));
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (colon < 1 || port < 0 || port > 65535) {
            throw options.usage("invalid value for option '--listen': expected HOST:PORT (" + DEFAULT_LISTEN
                    + ", [::1]:4318, 0.0.0.0:4318), found " + Escaping.controls(listen));
        }
        InetSocketAddress a = new InetSocketAddress(host, port);
        if (a.isUnresolved()) {
            throw options.usage("invalid value for option '--listen': unknown host " + Escaping.controls(host));
        }
        return a;
    }

    /** The warning for an address other hosts may reach (not loopback), or null. */
    static String exposure(InetSocketAddress a) {
        if (a.getAddress().isLoopbackAddress()) {
            return null;
        }
        return VersionInfo.NAME + ": warning: " + hostPort(a) + " is reachable from other hosts"
                + (a.getAddress().isAnyLocalAddress() ? " (every interface)" : "") + ": the receiver has no "
                + "authentication and no TLS, so anyone who reaches it can post spans into the audit and read /metrics; "
                + "bind 127.0.0.1 unless a collector on another host must reach it";
    }

    static String hostPort(InetSocketAddress a) {
        String host = a.getAddress().getHostAddress();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort();
    }

    /** A duration as {@code 500ms}, {@code 10s}, {@code 2m} or {@code 1h}; a usage error otherwise. */
    private Duration duration(String option, String text) {
        Duration d = Durations.parse(text);
        if (d != null) {
            return d;
        }
        throw options.usage("invalid value for option '" + option + "': expected a duration such as 500ms, 10s, 2m "
                + "or 1h, found " + Escaping.controls(text));
    }

    /**
     * SIGTERM and SIGINT end the run cleanly (audit what is open, report, exit 0 or 2) rather than kill
     * it, while it serves; the handlers before are restored after.
     */
    private static final class Signals {
        private final java.util.Map<sun.misc.Signal, sun.misc.SignalHandler> before = new java.util.LinkedHashMap<>();

        static Signals onStop(Runnable stop) {
            Signals s = new Signals();
            for (String name : new String[] {"TERM", "INT"}) {
                try {
                    sun.misc.Signal signal = new sun.misc.Signal(name);
                    s.before.put(signal, sun.misc.Signal.handle(signal, x -> stop.run()));
                } catch (IllegalArgumentException e) {
                    // A signal this platform or JVM does not let a program handle: it ends the process as usual.
                }
            }
            return s;
        }

        void restore() {
            before.forEach(sun.misc.Signal::handle);
        }
    }
}

package dev.retryaudit.cli;

import dev.retryaudit.api.AuditInput;
import dev.retryaudit.api.AuditResult;
import dev.retryaudit.api.AuditSettings;
import dev.retryaudit.api.ExitCode;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.api.Setting;
import dev.retryaudit.api.split.InputRejection;
import dev.retryaudit.model.Limits;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/** {@code retry-audit audit}: reads traces from files or stdin, runs the rules, prints the report, exits 0 or 2. */
@Command(addMethodSubcommands = false, name = "audit", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class, sortOptions = false,
        usageHelpAutoWidth = true,
        description = "Audit traces of tool calls and HTTP attempts for unsafe retries. "
                + "Several FILEs are audited as one input set; no FILE or \"-\" reads standard input.")
final class AuditCommand implements Callable<Integer> {
    private static final Path STDIN = Path.of("/dev/stdin");

    private final Streams io;

    @Parameters(paramLabel = "FILE", arity = "0..*", description = "Trace files to audit; \"-\" or none reads stdin.")
    List<String> files = new ArrayList<>();

    @Mixin
    AuditOptions options;

    @Option(names = "--baseline", paramLabel = "REPORT",
            description = "A previous JSON report (--format json): findings whose fingerprint it holds are left out "
                    + "of the report and do not count towards the exit code; the summary says how many.")
    String baseline;

    @Option(names = "--allow-empty", description = "Pass an input set that holds no attempt (exit 0 with an input note) "
            + "instead of refusing it with exit 65: nothing in it was audited.")
    boolean allowEmpty;

    @Mixin
    StoreOptions store;

    @Option(names = "--debug", description = "Show stack traces on internal errors.")
    boolean debug;

    AuditCommand(Streams io) {
        this.io = io;
    }

    /**
     * The command line of this subcommand: the settings rows it offers are the shared ones, the input format
     * before them and the limits after {@code --baseline}.
     */
    static CommandLine commandLine(Streams io) {
        CommandLine cl = new CommandLine(new AuditCommand(io));
        CommandSpec spec = cl.getCommandSpec();
        AuditOptions.addSettings(spec);
        SettingOptions.before(spec, "--format", Setting.INPUT_FORMAT);
        SettingOptions.after(spec, "--baseline", Setting.LIMIT_BYTES, Setting.LIMIT_OPERATIONS, Setting.LIMIT_ATTEMPTS,
                Setting.LIMIT_STRING, Setting.LIMIT_DEPTH);
        return cl;
    }

    @Override
    public Integer call() {
        AuditSettings.Builder settings = options.settings(Limits.DEFAULTS, false);
        if (store.from != null && !files.isEmpty()) {
            throw usage("--from reads a trace store instead of files: name no FILE with it");
        }
        if (store.from != null && !SettingOptions.given(options.spec, Setting.INPUT_FORMAT).stream().allMatch("auto"::equals)) {
            throw usage("--from reads the format its store answers: --input-format does not apply");
        }
        List<String> names = files.isEmpty() ? List.of("-") : files;
        if (names.stream().filter("-"::equals).count() > 1) {
            throw usage("standard input (-) can be named only once");
        }
        if ("-".equals(baseline)) {
            throw usage("--baseline reads a report file, not standard input");
        }
        String baselineUnusable = null;
        if (baseline != null) {
            try {
                settings.baseline(AuditInput.path(baseline));
            } catch (IllegalArgumentException e) {
                baselineUnusable = e.getMessage();
            }
        }
        AuditInput fromStore = store.from == null ? null : store.input(options);
        AuditSettings checked = options.build(settings);
        options.checkTarget("--output", options.output, fromStore == null ? readPaths(names) : readPaths(List.of()));
        RetryAudit auditor;
        AuditResult result;
        try {
            auditor = RetryAudit.of(checked);
            if (baselineUnusable != null) {
                throw InputRejection.unreadable(baseline, baselineUnusable);
            }
            result = auditor.audit(fromStore == null ? input(names) : fromStore);
        } catch (RetryAuditException e) {
            return options.inputError(io, e);
        }
        RetryAuditException empty = allowEmpty ? null : NothingAudited.check(result.inputs());
        if (empty != null) {
            return options.inputError(io, empty);
        }
        int verdict = auditor.passed(result) ? ExitCode.CLEAN.code() : ExitCode.FINDINGS.code();
        return options.report(io, auditor, result, verdict);
    }

    /**
     * The operands as one input set: {@code -} is standard input, read to its end; a file keeps its name as
     * given. A name the file system cannot represent is an input that cannot be read, told before any is read.
     */
    private AuditInput input(List<String> names) throws RetryAuditException {
        List<AuditInput> inputs = new ArrayList<>();
        for (String name : names) {
            inputs.add(AuditInput.named(name, io.stdin()));
        }
        return AuditInput.all(inputs);
    }

    /** The files this audit reads, standard input's included, that --output must not overwrite. */
    private List<Path> readPaths(List<String> names) {
        List<Path> read = new ArrayList<>();
        for (String name : names) {
            read.add("-".equals(name) ? STDIN : pathOrNull(name));
        }
        if (baseline != null) {
            read.add(pathOrNull(baseline));
        }
        return read;
    }

    /** The file {@code name} denotes, or null when it cannot denote one (reading it says why). */
    private static Path pathOrNull(String name) {
        try {
            return AuditInput.path(name);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private CommandLine.ParameterException usage(String message) {
        return options.usage(message);
    }
}

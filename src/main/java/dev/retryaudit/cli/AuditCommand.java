package dev.retryaudit.cli;

import dev.retryaudit.api.AuditInput;
import dev.retryaudit.api.AuditResult;
import dev.retryaudit.api.AuditSettings;
import dev.retryaudit.api.ExitCode;
import dev.retryaudit.api.InputRejection;
import dev.retryaudit.api.LimitOptions;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.input.InputSet;
import dev.retryaudit.input.store.StoreQuery;
import dev.retryaudit.model.InputFormat;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
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

    @Option(names = "--input-format", paramLabel = "FORMAT", defaultValue = "auto",
            converter = Choice.InputFormats.class, completionCandidates = Choice.InputFormats.class,
            description = "How to read the input: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    InputFormat inputFormat;

    @Mixin
    AuditOptions options;

    @Option(names = "--baseline", paramLabel = "REPORT",
            description = "A previous JSON report (--format json): findings whose fingerprint it holds are left out "
                    + "of the report and do not count towards the exit code; the summary says how many.")
    String baseline;

    @Mixin
    LimitOptions limitOptions;

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

    @Override
    public Integer call() {
        AuditSettings.Builder settings = options.settings(limitOptions.limits(), false).inputFormat(inputFormat);
        if (store.from != null && !files.isEmpty()) {
            throw usage("--from reads a trace store instead of files: name no FILE with it");
        }
        if (store.from != null && inputFormat != InputFormat.AUTO) {
            throw usage("--from reads the format its store answers: --input-format does not apply");
        }
        List<String> names = files.isEmpty() ? List.of("-") : files;
        List<InputSet.Source> sources = sources(names);
        if ("-".equals(baseline)) {
            throw usage("--baseline reads a report file, not standard input");
        }
        InputSet.Source baselineSource = baseline == null ? null : InputSet.Source.of(baseline);
        if (baselineSource != null && baselineSource.path() != null) {
            settings.baseline(baselineSource.path());
        }
        StoreQuery query = store.from == null ? null : store.query(options);
        AuditSettings checked = options.build(settings);
        options.checkTarget("--output", options.output, query == null ? readPaths(sources) : readPaths(List.of()));
        RetryAudit auditor;
        AuditResult result;
        try {
            AuditInput input;
            if (query == null) {
                auditor = RetryAudit.of(checked);
                input = null;
            } else {
                StoreOptions.Fetched fetched = StoreOptions.fetch(query, checked.limits().bytes());
                auditor = RetryAudit.of(options.build(settings.inputFormat(fetched.answer().format())));
                input = fetched.input();
            }
            if (baselineSource != null && baselineSource.path() == null) {
                throw InputRejection.unreadable(baseline, baselineSource.unusable());
            }
            result = auditor.audit(input == null ? input(sources) : input);
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
     * The sources as one input set: {@code -} is standard input, read to its end; a file keeps its name as
     * given. A name the file system cannot represent is an input that cannot be read, told before any is read.
     */
    private AuditInput input(List<InputSet.Source> sources) throws RetryAuditException {
        List<AuditInput> inputs = new ArrayList<>();
        for (InputSet.Source s : sources) {
            if (s.unusable() != null) {
                throw InputRejection.unreadable(s.name(), s.unusable());
            }
            inputs.add(s.path() == null ? AuditInput.stream(io.stdin(), s.name()) : AuditInput.file(s.path(), s.name()));
        }
        return AuditInput.all(inputs);
    }

    private List<InputSet.Source> sources(List<String> names) {
        if (names.stream().filter("-"::equals).count() > 1) {
            throw usage("standard input (-) can be named only once");
        }
        return names.stream().map(InputSet.Source::of).toList();
    }

    /** The files this audit reads, standard input's included, that --output must not overwrite. */
    private List<Path> readPaths(List<InputSet.Source> sources) {
        List<Path> read = new ArrayList<>();
        for (InputSet.Source s : sources) {
            read.add(s.path() != null || s.unusable() != null ? s.path() : STDIN);
        }
        if (baseline != null) {
            read.add(InputSet.Source.of(baseline).path());
        }
        return read;
    }

    private CommandLine.ParameterException usage(String message) {
        return options.usage(message);
    }
}

package dev.retryaudit.cli;

import dev.retryaudit.input.BaselineReader;
import dev.retryaudit.input.InputException;
import dev.retryaudit.input.InputFormat;
import dev.retryaudit.input.InputSet;
import dev.retryaudit.input.Limits;
import dev.retryaudit.input.PolicyReader;
import dev.retryaudit.input.Readers;
import dev.retryaudit.model.Baseline;
import dev.retryaudit.model.Policy;
import dev.retryaudit.report.FailOn;
import dev.retryaudit.report.InputFailure;
import dev.retryaudit.report.Report;
import dev.retryaudit.report.ReportFormat;
import dev.retryaudit.report.ReportWriter;
import dev.retryaudit.rules.RuleRegistry;
import dev.retryaudit.rules.RuleSelection;
import dev.retryaudit.text.ColorMode;
import dev.retryaudit.text.Suggestions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code retry-audit audit}: reads traces from files or stdin, runs the rules, prints the report, exits 0 or 2. */
@Command(name = "audit", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class, sortOptions = false,
        usageHelpAutoWidth = true,
        description = "Audit traces of tool calls and HTTP attempts for unsafe retries. "
                + "Several FILEs are audited as one input set; no FILE or \"-\" reads standard input.")
final class AuditCommand implements Callable<Integer> {
    private final Streams io;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE", arity = "0..*", description = "Trace files to audit; \"-\" or none reads stdin.")
    List<String> files = new ArrayList<>();

    @Option(names = "--input-format", paramLabel = "FORMAT", defaultValue = "auto",
            completionCandidates = SupportedInputFormats.class,
            description = "How to read the input: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    String inputFormat;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "json",
            completionCandidates = ReportFormats.class,
            description = "Report format on stdout: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--output", paramLabel = "FILE", description = "Write the report to FILE instead of stdout.")
    Path output;

    @Option(names = "--policy", paramLabel = "FILE",
            description = "Thresholds, per-tool settings and rule severities (a JSON policy file; default: built-in).")
    Path policyFile;

    @Option(names = "--fail-on", paramLabel = "SEVERITY", defaultValue = "error",
            completionCandidates = FailOns.class,
            description = "Lowest severity that makes the exit code 2: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    String failOn;

    @Option(names = "--baseline", paramLabel = "REPORT",
            description = "A previous JSON report (--format json): findings whose fingerprint it holds are left out "
                    + "of the report and do not count towards the exit code; the summary says how many.")
    String baseline;

    @Option(names = "--color", paramLabel = "WHEN", defaultValue = "auto", completionCandidates = ColorModes.class,
            description = "Colour in the text format: ${COMPLETION-CANDIDATES}; auto colours only a terminal, "
                    + "and never when NO_COLOR is set (default: ${DEFAULT-VALUE}).")
    String color;

    @Option(names = "--enable", paramLabel = "RULE", description = "Enable a rule id or a whole family; repeatable.")
    List<String> enable = new ArrayList<>();

    @Option(names = "--disable", paramLabel = "RULE", description = "Disable a rule id or a whole family; repeatable.")
    List<String> disable = new ArrayList<>();

    @Option(names = "--limit-bytes", paramLabel = "N", description = "Most input bytes, all files together (default: 1 GiB).")
    long limitBytes = Limits.DEFAULTS.bytes();

    @Option(names = "--limit-operations", paramLabel = "N", description = "Most operations (default: 5,000,000).")
    long limitOperations = Limits.DEFAULTS.operations();

    @Option(names = "--limit-attempts", paramLabel = "N", description = "Most attempts in one operation (default: 10,000).")
    int limitAttempts = Limits.DEFAULTS.attemptsPerOperation();

    @Option(names = "--limit-string", paramLabel = "N", description = "Longest string, in characters (default: 65,536).")
    int limitString = Limits.DEFAULTS.stringLength();

    @Option(names = "--limit-depth", paramLabel = "N", description = "Deepest nesting (default: 64).")
    int limitDepth = Limits.DEFAULTS.depth();

    @Option(names = "--debug", description = "Show stack traces on internal errors.")
    boolean debug;

    AuditCommand(Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        InputFormat inFormat = supportedInputFormat(inputFormat);
        ReportFormat outFormat = choice("--format", format, ReportFormat.parse(format), ReportFormat.ids());
        FailOn threshold = choice("--fail-on", failOn, FailOn.parse(failOn), FailOn.ids());
        ColorMode colorMode = choice("--color", color, ColorMode.parse(color), ColorMode.ids());
        Limits limits = limits();
        checkRuleNames(enable, "--enable");
        checkRuleNames(disable, "--disable");
        List<InputSet.Source> sources = sources();
        if ("-".equals(baseline)) {
            throw usage("--baseline reads a report file, not standard input");
        }
        ReportOutput out = new ReportOutput(output, io);
        ReportWriter writer = outFormat.writer(output == null
                && colorMode.enabled(Terminal.isTerminal(io.stdout()), System.getenv()));
        Report report;
        try {
            Policy policy = policyFile == null ? Policy.DEFAULTS : PolicyReader.read(policyFile, RuleRegistry.ids(), limits);
            Baseline accepted = baseline == null ? null : BaselineReader.read(baseline, limits);
            Auditor auditor = new Auditor(inFormat, limits, policy, RuleSelection.of(policy, enable, disable),
                    threshold, accepted);
            report = auditor.audit(sources, io.stdin());
        } catch (InputException e) {
            return inputError(e, writer, out);
        }
        int verdict = report.passed() ? ExitCode.CLEAN.code() : ExitCode.FINDINGS.code();
        return out.write(o -> writer.write(report, o), verdict);
    }

    /** The diagnostic on stderr in every format; on stdout what the format prints for an input error. */
    private int inputError(InputException e, ReportWriter writer, ReportOutput out) {
        io.err().println(e.diagnostic());
        int code = e.kind() == InputException.Kind.UNREADABLE ? ExitCode.NO_INPUT.code() : ExitCode.DATA.code();
        InputFailure failure = new InputFailure(VersionInfo.NAME, VersionInfo.version(), code, e);
        return out.write(o -> writer.writeError(failure, o), code);
    }

    private List<InputSet.Source> sources() {
        List<String> names = files.isEmpty() ? List.of("-") : files;
        if (names.stream().filter("-"::equals).count() > 1) {
            throw usage("standard input (-) can be named only once");
        }
        return names.stream().map(InputSet.Source::of).toList();
    }

    private Limits limits() {
        String[][] checks = {
            {"--limit-bytes", Long.toString(limitBytes)}, {"--limit-operations", Long.toString(limitOperations)},
            {"--limit-attempts", Integer.toString(limitAttempts)}, {"--limit-string", Integer.toString(limitString)},
            {"--limit-depth", Integer.toString(limitDepth)}};
        for (String[] c : checks) {
            if (Long.parseLong(c[1]) < 1) {
                throw usage("invalid value for option '" + c[0] + "': must be at least 1");
            }
        }
        return new Limits(limitBytes, limitOperations, limitAttempts, limitString, limitDepth);
    }

    private InputFormat supportedInputFormat(String value) {
        InputFormat f = InputFormat.parse(value);
        List<String> supported = SupportedInputFormats.ids();
        return choice("--input-format", value, f != null && supported.contains(f.id()) ? f : null, supported);
    }

    private <T> T choice(String option, String value, T parsed, List<String> allowed) {
        if (parsed == null) {
            throw usage("invalid value for option '" + option + "': expected one of " + String.join(", ", allowed));
        }
        return parsed;
    }

    private void checkRuleNames(List<String> names, String option) {
        List<String> known = Stream.concat(RuleRegistry.families().stream(), RuleRegistry.ids().stream()).toList();
        for (String n : names) {
            if (!RuleSelection.isKnown(n)) {
                List<String> close = Suggestions.closestAll(n, known, 3);
                throw usage("unknown rule or family for option '" + option + "'"
                        + (close.isEmpty() ? "" : " (did you mean " + String.join(", ", close) + "?)"));
            }
        }
        List<String> both = names == enable ? names.stream().filter(disable::contains).toList() : List.of();
        if (!both.isEmpty()) {
            throw usage("the same rule or family is both enabled and disabled: " + both.get(0));
        }
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }

    /** The input formats this build reads, for help and validation. */
    static final class SupportedInputFormats implements Iterable<String> {
        static List<String> ids() {
            return Stream.of(InputFormat.values())
                    .filter(f -> f == InputFormat.AUTO || Readers.forFormat(f) != null)
                    .map(InputFormat::id).toList();
        }

        @Override
        public java.util.Iterator<String> iterator() {
            return ids().iterator();
        }
    }

    /** The report formats, for help. */
    static final class ReportFormats implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return ReportFormat.ids().iterator();
        }
    }

    /** The --color values, for help. */
    static final class ColorModes implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return ColorMode.ids().iterator();
        }
    }

    /** The --fail-on values, for help. */
    static final class FailOns implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return FailOn.ids().iterator();
        }
    }
}

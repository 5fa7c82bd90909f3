package dev.retryaudit.cli;

import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.input.FileNames;
import dev.retryaudit.model.InputError;
import dev.retryaudit.model.InputException;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Policy;
import dev.retryaudit.report.FailOn;
import dev.retryaudit.report.InputFailure;
import dev.retryaudit.report.ReportFormat;
import dev.retryaudit.report.ReportWriter;
import dev.retryaudit.rules.engine.ProbeCatalogue;
import dev.retryaudit.rules.engine.RuleSelection;
import dev.retryaudit.text.Escaping;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The options that {@code audit} and {@code probe} share (report format, output file, policy, fail-on
 * level, colour, rule selection), as a picocli mixin, with their validation as usage errors of the
 * command that mixes them in.
 */
final class AuditOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "json",
            converter = Choice.ReportFormats.class, completionCandidates = Choice.ReportFormats.class,
            description = "Report format on stdout: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    ReportFormat format;

    @Option(names = "--output", paramLabel = "FILE", description = "Write the report to FILE instead of stdout.")
    Path output;

    @Option(names = "--policy", paramLabel = "FILE",
            description = "Thresholds, per-tool settings and rule severities (a JSON policy file; default: built-in).")
    Path policyFile;

    @Option(names = "--fail-on", paramLabel = "SEVERITY", defaultValue = "error",
            converter = Choice.FailOns.class, completionCandidates = Choice.FailOns.class,
            description = "Lowest severity that makes the exit code 2: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    FailOn failOn;

    @Option(names = "--color", paramLabel = "WHEN", defaultValue = "auto",
            converter = Choice.ColorModes.class, completionCandidates = Choice.ColorModes.class,
            description = "Colour in the text format: ${COMPLETION-CANDIDATES}; auto colours only a terminal, "
                    + "and never when NO_COLOR is set (default: ${DEFAULT-VALUE}).")
    ColorMode color;

    @Option(names = "--enable", paramLabel = "RULE", description = "Enable a rule id or a whole family; repeatable.")
    List<String> enable = new ArrayList<>();

    @Option(names = "--disable", paramLabel = "RULE", description = "Disable a rule id or a whole family; repeatable.")
    List<String> disable = new ArrayList<>();

    /** The report's writer, in colour where {@code --color} and the terminal allow it. */
    ReportWriter writer(Streams io) {
        return format.writer(output == null && color.enabled(Terminal.isTerminal(io.stdout()), System.getenv()));
    }

    /**
     * Refuses an unknown rule or family in {@code --enable}/{@code --disable}, one named by both, and the probe's
     * verdicts except {@code --enable} on a probe run ({@code probeRun}).
     */
    void checkRuleNames(boolean probeRun) {
        String problem = RuleSelection.problem(enable, disable, "option '--enable'", "option '--disable'", probeRun);
        if (problem != null) {
            throw usage(problem);
        }
    }

    /**
     * An auditor's settings from these options (checked first with {@link #checkRuleNames}): the {@code --policy}
     * file (read when it is built) or the built-in policy, the rule selection and {@code --fail-on}. The probe's
     * verdicts that a probe run may name in {@code --enable} are always on and are no rules of the auditor.
     */
    RetryAudit.Builder auditor(Limits limits) {
        RetryAudit.Builder b = settings(limits, Policy.DEFAULTS, enable, disable, failOn);
        return policyFile == null ? b : b.policy(policyFile);
    }

    /**
     * An auditor's settings: {@code policy}, the rule names as {@code --enable}/{@code --disable} take them
     * (checked first) and {@code failOn}.
     */
    static RetryAudit.Builder settings(Limits limits, Policy policy, List<String> enable, List<String> disable,
            FailOn failOn) {
        return RetryAudit.builder().limits(limits).policy(policy).failOn(failOn)
                .enable(enable.stream().filter(n -> !ProbeCatalogue.names(n)).toArray(String[]::new))
                .disable(disable.toArray(String[]::new));
    }

    /** The auditor of {@code settings} that hold no file to read, which therefore cannot fail on input. */
    static RetryAudit build(RetryAudit.Builder settings) {
        try {
            return settings.build();
        } catch (RetryAuditException e) {
            throw new IllegalStateException("an auditor with no file to read failed: " + e.getMessage(), e);
        }
    }

    /**
     * Refuses (exit 64) a file to write that cannot be one: a directory, a name the locale cannot
     * represent exactly (two names could decode alike), or the same file (through links and other spellings) as one that is read: {@code read},
     * the policy. Only a regular file is compared: a device or FIFO is written, never replaced.
     */
    void checkTarget(String option, Path target, List<Path> read) {
        if (target == null) {
            return;
        }
        String name = Escaping.controls(target.toString());
        String invalid = "invalid value for option '" + option + "': ";
        if (Files.isDirectory(target)) {
            throw usage(invalid + name + " is a directory");
        }
        if (!FileNames.representable(target.toString())) {
            throw usage(invalid + "the name " + name + " cannot be represented in the locale's character set ("
                    + System.getProperty("sun.jnu.encoding") + "); set LC_ALL to a UTF-8 locale "
                    + "(for example LC_ALL=C.UTF-8) or choose another name");
        }
        if (!Files.isRegularFile(target)) {
            return;
        }
        List<Path> all = new ArrayList<>(read);
        if (policyFile != null) {
            all.add(policyFile);
        }
        for (Path p : all) {
            if (p != null && sameFile(target, p)) {
                throw usage(invalid + name + " is the same file as the input " + Escaping.controls(p.toString())
                        + ", which it would overwrite");
            }
        }
    }

    private static boolean sameFile(Path a, Path b) {
        try {
            return Files.exists(b) && Files.isSameFile(a, b);
        } catch (java.io.IOException | SecurityException e) {
            return false;
        }
    }

    ReportOutput output(Streams io) {
        return new ReportOutput(output, io);
    }

    /**
     * The diagnostic on stderr in every format; on stdout (or {@code --output}) what the format prints for an
     * input error. An input over a limit gets the option that raises it.
     */
    int inputError(Streams io, InputException e, ReportWriter writer) {
        InputError error = e.error(LimitHints::of);
        io.err().println(error.diagnostic());
        int code = e.kind() == InputException.Kind.UNREADABLE ? ExitCode.NO_INPUT.code() : ExitCode.DATA.code();
        InputFailure failure = new InputFailure(VersionInfo.NAME, VersionInfo.version(), code, error);
        return output(io).write(o -> writer.writeError(failure, o), code);
    }

    /** A usage error (exit 64) of the command these options belong to. */
    CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}

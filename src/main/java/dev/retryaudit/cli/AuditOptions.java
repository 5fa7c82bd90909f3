package dev.retryaudit.cli;

import dev.retryaudit.api.AuditInput;
import dev.retryaudit.api.AuditResult;
import dev.retryaudit.api.AuditSettings;
import dev.retryaudit.api.ExitCode;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.model.FailOn;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.ReportFormat;
import dev.retryaudit.probe.ProbeCatalogue;
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

    @Option(names = "--tools", paramLabel = "FILE",
            description = "Which tools write, for tool calls the trace does not tell: an MCP tools/list result "
                    + "(readOnlyHint, idempotentHint) or a tools file; the policy's per-tool settings come first.")
    Path toolsFile;

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

    /** Whether the report goes to a terminal that --color lets it mark in colour. */
    boolean colour(Streams io) {
        return output == null && color.enabled(Terminal.isTerminal(io.stdout()), System.getenv());
    }

    /**
     * The audit settings of these options, the report's timelines included, over {@code limits}: the
     * {@code --policy} file (read when an auditor is made) or the built-in policy, the rule selection,
     * {@code --format} and {@code --fail-on}. The probe's verdicts are refused in {@code --enable} and
     * {@code --disable}, except in {@code --enable} on a probe run ({@code probeRun}), where they change nothing
     * since a probe run always reports them. Call {@link #build} to check the settings.
     */
    AuditSettings.Builder settings(Limits limits, boolean probeRun) {
        String probe = ProbeCatalogue.problem(enable, "option '--enable'", disable, "option '--disable'", probeRun);
        if (probe != null) {
            throw usage(probe);
        }
        AuditSettings.Builder b = AuditSettings.builder().limits(limits).reportFormat(format).failOn(failOn)
                .timelines(RetryAudit.timelines(format))
                .enable(ProbeCatalogue.withoutVerdicts(enable)).disable(disable);
        if (toolsFile != null) {
            b.tools(toolsFile);
        }
        return policyFile == null ? b : b.policy(policyFile);
    }

    /** The settings {@code b} holds, or a usage error (exit 64) saying which rule name or value is wrong. */
    AuditSettings build(AuditSettings.Builder b) {
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
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
        if (!AuditInput.representable(target.toString())) {
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
    int inputError(Streams io, RetryAuditException e) {
        io.err().println(e.commandLineDiagnostic());
        boolean colour = colour(io);
        return output(io).write(o -> RetryAudit.writeError(e, format, colour, o), ExitCode.of(e).code());
    }

    /** Writes the report of {@code result} by {@code auditor} in {@code --format}; returns {@code verdict}, or 74. */
    int report(Streams io, RetryAudit auditor, AuditResult result, int verdict) {
        boolean colour = colour(io);
        return output(io).write(o -> auditor.writeReport(result, format, colour, o), verdict);
    }

    /** A usage error (exit 64) of the command these options belong to. */
    CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}

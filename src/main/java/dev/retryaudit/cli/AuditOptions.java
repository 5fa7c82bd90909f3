package dev.retryaudit.cli;

import dev.retryaudit.api.AuditInput;
import dev.retryaudit.api.AuditResult;
import dev.retryaudit.api.AuditSettings;
import dev.retryaudit.api.ExitCode;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.api.Setting;
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
 * The options that {@code audit}, {@code probe} and {@code serve} share: the settings rows they all offer (report
 * format, policy, tools, fail-on level, rule selection; see {@link #addSettings}), the output file and the
 * colour, as a picocli mixin, with their validation as usage errors of the command that mixes them in.
 */
final class AuditOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--output", paramLabel = "FILE", description = "Write the report to FILE instead of stdout.")
    Path output;

    @Option(names = "--color", paramLabel = "WHEN", defaultValue = "auto",
            converter = Choice.ColorModes.class, completionCandidates = Choice.ColorModes.class,
            description = "Colour in the text format: ${COMPLETION-CANDIDATES}; auto colours only a terminal, "
                    + "and never when NO_COLOR is set (default: ${DEFAULT-VALUE}).")
    ColorMode color;

    /** The settings {@link #build} made, which name the report format and the policy file. */
    private AuditSettings built;

    /**
     * Adds the settings rows these options share to {@code spec}, the command that mixes them in, around the
     * output and colour options: the report format, the policy and tools files, the fail-on level and the rule
     * selection.
     */
    static void addSettings(CommandSpec spec) {
        SettingOptions.before(spec, "--output", Setting.FORMAT);
        SettingOptions.before(spec, "--color", Setting.POLICY, Setting.TOOLS, Setting.FAIL_ON);
        SettingOptions.after(spec, "--color", Setting.ENABLE, Setting.DISABLE);
    }

    /** Whether the report goes to a terminal that --color lets it mark in colour. */
    boolean colour(Streams io) {
        return output == null && color.enabled(Terminal.isTerminal(io.stdout()), System.getenv());
    }

    /**
     * The audit settings the command line gives over {@code base} (the command's limits): every settings row its
     * command offers (see {@link SettingOptions}), the report's timelines included when it is built. The probe's
     * verdicts are refused in {@code --enable} and {@code --disable}, except in {@code --enable} on a probe run
     * ({@code probeRun}), where they change nothing since a probe run always reports them. Call {@link #build} to
     * check the settings.
     */
    AuditSettings.Builder settings(Limits base, boolean probeRun) {
        String probe = ProbeCatalogue.problem(SettingOptions.given(spec, Setting.ENABLE), "option '--enable'",
                SettingOptions.given(spec, Setting.DISABLE), "option '--disable'", probeRun);
        if (probe != null) {
            throw usage(probe);
        }
        return SettingOptions.apply(spec, AuditSettings.builder().limits(base),
                (row, value) -> row != Setting.ENABLE || !ProbeCatalogue.names(value));
    }

    /**
     * The settings {@code b} holds, with the timelines their report format draws, or a usage error (exit 64)
     * saying which rule name or value is wrong.
     */
    AuditSettings build(AuditSettings.Builder b) {
        try {
            AuditSettings s = b.build();
            built = s.toBuilder().timelines(RetryAudit.timelines(s.reportFormat())).build();
            return built;
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    /** The report format of the settings built. */
    ReportFormat format() {
        return built.reportFormat();
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
        built.policyFile().ifPresent(all::add);
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
        return output(io).write(o -> RetryAudit.writeError(e, format(), colour, o), ExitCode.of(e).code());
    }

    /** Writes the report of {@code result} by {@code auditor} in {@code --format}; returns {@code verdict}, or 74. */
    int report(Streams io, RetryAudit auditor, AuditResult result, int verdict) {
        boolean colour = colour(io);
        return output(io).write(o -> auditor.writeReport(result, format(), colour, o), verdict);
    }

    /** A usage error (exit 64) of the command these options belong to. */
    CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}

package dev.retryaudit.cli;

import dev.retryaudit.model.Policy;
import dev.retryaudit.report.FailOn;
import dev.retryaudit.report.ReportFormat;
import dev.retryaudit.report.ReportWriter;
import dev.retryaudit.rules.RuleRegistry;
import dev.retryaudit.rules.RuleSelection;
import dev.retryaudit.text.ColorMode;
import dev.retryaudit.text.Suggestions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The options of every command that audits and reports (report format, output file, colour, fail-on
 * level, rule selection), as a picocli mixin, with their validation as usage errors of the command that
 * mixes them in.
 */
final class ReportOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "json",
            completionCandidates = AuditCommand.ReportFormats.class,
            description = "Report format on stdout: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--output", paramLabel = "FILE", description = "Write the report to FILE instead of stdout.")
    Path output;

    @Option(names = "--fail-on", paramLabel = "SEVERITY", defaultValue = "error",
            completionCandidates = AuditCommand.FailOns.class,
            description = "Lowest severity that makes the exit code 2: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    String failOn;

    @Option(names = "--color", paramLabel = "WHEN", defaultValue = "auto",
            completionCandidates = AuditCommand.ColorModes.class,
            description = "Colour in the text format: ${COMPLETION-CANDIDATES}; auto colours only a terminal, "
                    + "and never when NO_COLOR is set (default: ${DEFAULT-VALUE}).")
    String color;

    @Option(names = "--enable", paramLabel = "RULE", description = "Enable a rule id or a whole family; repeatable.")
    List<String> enable = new ArrayList<>();

    @Option(names = "--disable", paramLabel = "RULE", description = "Disable a rule id or a whole family; repeatable.")
    List<String> disable = new ArrayList<>();

    @Option(names = "--debug", description = "Show stack traces on internal errors.")
    boolean debug;

    ReportFormat reportFormat() {
        return choice("--format", ReportFormat.parse(format), ReportFormat.ids());
    }

    /** The report's writer, in colour where {@code --color} and the terminal allow it. */
    ReportWriter writer(Streams io) {
        ReportFormat format = reportFormat();
        ColorMode mode = choice("--color", ColorMode.parse(color), ColorMode.ids());
        return format.writer(output == null && mode.enabled(Terminal.isTerminal(io.stdout()), System.getenv()));
    }

    FailOn failOn() {
        return choice("--fail-on", FailOn.parse(failOn), FailOn.ids());
    }

    /** The rules to run under {@code policy} with {@code --enable}/{@code --disable} applied. */
    RuleSelection rules(Policy policy) {
        checkRuleNames(enable, "--enable");
        checkRuleNames(disable, "--disable");
        List<String> both = enable.stream().filter(disable::contains).toList();
        if (!both.isEmpty()) {
            throw usage("the same rule or family is both enabled and disabled: " + both.get(0));
        }
        return RuleSelection.of(policy, enable, disable);
    }

    ReportOutput output(Streams io) {
        return new ReportOutput(output, io);
    }

    /** A usage error (exit 64) of the command these options belong to. */
    CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }

    private <T> T choice(String option, T parsed, List<String> allowed) {
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
    }
}

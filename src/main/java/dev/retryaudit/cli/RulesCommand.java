package dev.retryaudit.cli;

import dev.retryaudit.api.ExitCode;
import dev.retryaudit.report.RuleList;
import dev.retryaudit.rules.RuleInfo;
import dev.retryaudit.rules.engine.RuleRegistry;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code retry-audit rules}: lists every built-in rule with its family, default severity and summary, in catalogue
 * order, then the probe's verdicts, marked as reported by {@code probe} only.
 */
@Command(addMethodSubcommands = false, name = "rules", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class, sortOptions = false,
        usageHelpAutoWidth = true,
        description = "List every rule: id, family, default severity and summary, in catalogue order. "
                + "The probe family's rules, marked '(probe only)', are verdicts that only 'retry-audit probe' reports. "
                + "'retry-audit explain RULE' shows a rule's full documentation.")
final class RulesCommand implements Callable<Integer> {
    static final List<String> FORMATS = List.of("text", "json");

    private final Streams io;

    @Spec
    CommandSpec spec;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "text", completionCandidates = Formats.class,
            description = "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    String format;

    RulesCommand(Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        if (!FORMATS.contains(format)) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "invalid value for option '--format': expected one of " + String.join(", ", FORMATS));
        }
        List<RuleInfo> rules = RuleRegistry.catalogue();
        ReportOutput out = new ReportOutput(null, io);
        return out.write(o -> {
            if (format.equals("json")) {
                RuleList.writeJson(rules, o);
            } else {
                RuleList.writeText(rules, o);
            }
        }, ExitCode.CLEAN.code());
    }

    /** The --format values, for help. */
    static final class Formats implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return FORMATS.iterator();
        }
    }
}

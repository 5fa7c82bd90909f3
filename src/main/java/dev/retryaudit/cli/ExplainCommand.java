package dev.retryaudit.cli;

import dev.retryaudit.api.ExitCode;
import dev.retryaudit.report.RuleList;
import dev.retryaudit.rules.RuleInfo;
import dev.retryaudit.rules.engine.RuleDocs;
import dev.retryaudit.rules.engine.RuleRegistry;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code retry-audit explain RULE}: prints a rule's markdown documentation, or the rules of a family. */
@Command(addMethodSubcommands = false, name = "explain", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class, sortOptions = false,
        usageHelpAutoWidth = true,
        description = "Print a rule's full documentation (markdown): what it catches, why it is unsafe, "
                + "a failing and a passing example, how to fix it and the policy settings that affect it. "
                + "Given a family (budget, trace, ...), list the family's rules as 'retry-audit rules' does.")
final class ExplainCommand implements Callable<Integer> {
    private final Streams io;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "RULE", description = "A rule id (budget/max-attempts, probe/not-tested) or a family (budget).")
    String name;

    ExplainCommand(Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        RuleInfo rule = RuleRegistry.info(name);
        ReportOutput out = new ReportOutput(null, io);
        if (rule != null) {
            String doc = RuleDocs.markdown(rule);
            if (doc == null) {
                throw new IllegalStateException("no documentation for " + rule.id() + " at " + RuleDocs.resource(rule));
            }
            return out.write(o -> o.write(doc.getBytes(StandardCharsets.UTF_8)), ExitCode.CLEAN.code());
        }
        List<RuleInfo> family = RuleRegistry.family(name);
        if (!family.isEmpty()) {
            return out.write(o -> RuleList.writeText(family, o), ExitCode.CLEAN.code());
        }
        throw new CommandLine.ParameterException(spec.commandLine(), RuleRegistry.unknown(name, List.of()));
    }
}

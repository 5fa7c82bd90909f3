package dev.retryaudit.cli;

import dev.retryaudit.report.RuleList;
import dev.retryaudit.rules.Rule;
import dev.retryaudit.rules.RuleDocs;
import dev.retryaudit.rules.RuleInfo;
import dev.retryaudit.rules.RuleRegistry;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code retry-audit explain RULE}: prints a rule's markdown documentation, or the rules of a family. */
@Command(name = "explain", mixinStandardHelpOptions = true, versionProvider = VersionInfo.class, sortOptions = false,
        usageHelpAutoWidth = true,
        description = "Print a rule's full documentation (markdown): what it catches, why it is unsafe, "
                + "a failing and a passing example, how to fix it and the policy settings that affect it. "
                + "Given a family (budget, trace, ...), list the family's rules as 'retry-audit rules' does.")
final class ExplainCommand implements Callable<Integer> {
    private final Streams io;

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "RULE", description = "A rule id (budget/max-attempts) or a family (budget).")
    String name;

    ExplainCommand(Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        Rule rule = RuleRegistry.byId(name);
        ReportOutput out = new ReportOutput(null, io);
        if (rule != null) {
            String doc = RuleDocs.markdown(rule.info());
            if (doc == null) {
                throw new IllegalStateException("no documentation for " + rule.info().id() + " at " + RuleDocs.resource(rule.info()));
            }
            return out.write(o -> o.write(doc.getBytes(StandardCharsets.UTF_8)), ExitCode.CLEAN.code());
        }
        if (RuleRegistry.families().contains(name)) {
            List<RuleInfo> family = RuleRegistry.all().stream().map(Rule::info)
                    .filter(r -> r.family().equals(name)).toList();
            return out.write(o -> RuleList.writeText(family, o), ExitCode.CLEAN.code());
        }
        throw new CommandLine.ParameterException(spec.commandLine(), RuleRegistry.unknown(name));
    }
}

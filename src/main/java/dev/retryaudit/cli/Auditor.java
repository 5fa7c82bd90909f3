package dev.retryaudit.cli;

import dev.retryaudit.input.InputException;
import dev.retryaudit.input.InputFormat;
import dev.retryaudit.input.InputSet;
import dev.retryaudit.input.Limits;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Policy;
import dev.retryaudit.report.FailOn;
import dev.retryaudit.report.Report;
import dev.retryaudit.rules.Engine;
import dev.retryaudit.rules.RuleSelection;
import java.io.InputStream;
import java.util.List;

/** The audit pipeline, input set to engine to report: the one place where the three meet, for {@code audit} and {@code probe}. */
record Auditor(InputFormat format, Limits limits, Policy policy, RuleSelection rules, FailOn failOn) {

    Report audit(List<InputSet.Source> sources, InputStream stdin) throws InputException {
        Engine engine = new Engine(policy, rules);
        List<InputSummary> inputs = new InputSet(format, limits).readAll(sources, stdin, engine::accept);
        return new Report(VersionInfo.NAME, VersionInfo.version(), inputs, engine.finish(), failOn);
    }
}

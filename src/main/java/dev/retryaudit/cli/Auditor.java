package dev.retryaudit.cli;

import dev.retryaudit.input.InputException;
import dev.retryaudit.input.InputFormat;
import dev.retryaudit.input.Limits;
import dev.retryaudit.input.pipeline.InputSet;
import dev.retryaudit.model.Baseline;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Policy;
import dev.retryaudit.report.FailOn;
import dev.retryaudit.report.Report;
import dev.retryaudit.rules.engine.Engine;
import dev.retryaudit.rules.engine.RuleSelection;
import java.io.InputStream;
import java.util.List;
import java.util.function.Consumer;

/**
 * The audit pipeline, input set to engine to report: the one place where the three meet, for {@code audit} and
 * {@code probe}. Findings that {@code baseline} (null for none) holds are left out of the report and counted.
 */
record Auditor(InputFormat format, Limits limits, Policy policy, RuleSelection rules, FailOn failOn,
        Baseline baseline) {

    Auditor(InputFormat format, Limits limits, Policy policy, RuleSelection rules, FailOn failOn) {
        this(format, limits, policy, rules, failOn, null);
    }

    Report audit(List<InputSet.Source> sources, InputStream stdin) throws InputException {
        return audit(sources, stdin, 0, op -> { });
    }

    /** As {@link #audit(List, InputStream)}, keeping up to {@code timelines} operations with findings for the report to draw. */
    Report audit(List<InputSet.Source> sources, InputStream stdin, int timelines) throws InputException {
        return audit(sources, stdin, timelines, op -> { });
    }

    /** As {@link #audit(List, InputStream)}, also handing every operation read to {@code seen}. */
    Report audit(List<InputSet.Source> sources, InputStream stdin, Consumer<Operation> seen) throws InputException {
        return audit(sources, stdin, 0, seen);
    }

    /** As {@link #audit(List, InputStream, int)}, also handing every operation read to {@code seen}. */
    Report audit(List<InputSet.Source> sources, InputStream stdin, int timelines, Consumer<Operation> seen)
            throws InputException {
        Engine engine = new Engine(policy, rules).keep(timelines);
        List<InputSummary> inputs = new InputSet(format, limits).readAll(sources, stdin, op -> {
            seen.accept(op);
            engine.accept(op);
        });
        List<Finding> all = engine.finish();
        List<Finding> kept = baseline == null ? all : baseline.unsuppressed(all);
        return new Report(VersionInfo.NAME, VersionInfo.version(), inputs, kept, failOn, rules.configured(),
                baseline == null ? null : baseline.source(), all.size() - kept.size()).withTimelines(engine.kept());
    }
}

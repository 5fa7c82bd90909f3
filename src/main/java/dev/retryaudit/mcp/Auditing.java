package dev.retryaudit.mcp;

import dev.retryaudit.input.InputException;
import dev.retryaudit.input.InputFormat;
import dev.retryaudit.input.Limits;
import dev.retryaudit.input.pipeline.InputSet;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Policy;
import dev.retryaudit.report.FailOn;
import dev.retryaudit.report.Report;
import dev.retryaudit.rules.engine.RuleSelection;
import java.io.InputStream;
import java.util.function.Consumer;

/** The audit pipeline as the command line runs it (its reader, limits, engine and report), handed to the server. */
@FunctionalInterface
public interface Auditing {
    /**
     * Audits {@code source} ({@code in} when it names no file) as {@code audit} would with these options and limits, handing
     * every operation read to {@code seen}.
     */
    Report audit(InputFormat format, Limits limits, Policy policy, RuleSelection rules, FailOn failOn, InputSet.Source source,
            InputStream in, Consumer<Operation> seen) throws InputException;
}

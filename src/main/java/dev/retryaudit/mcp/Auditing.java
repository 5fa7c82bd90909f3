package dev.retryaudit.mcp;

import dev.retryaudit.input.InputSet;
import dev.retryaudit.model.InputException;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Policy;
import dev.retryaudit.report.FailOn;
import dev.retryaudit.report.Report;
import java.io.InputStream;
import java.util.List;

/**
 * The audit pipeline as the command line runs it (its reader, limits, engine and report), handed to the server.
 * {@code enable} and {@code disable} are checked rule names, as {@code --enable} and {@code --disable} take them.
 */
public interface Auditing {
    /** Audits {@code source} ({@code in} when it names no file) as {@code audit} would with these options and limits. */
    Report audit(InputFormat format, Limits limits, Policy policy, List<String> enable, List<String> disable, FailOn failOn,
            InputSet.Source source, InputStream in) throws InputException;

    /** Audits {@code operations}, read elsewhere from {@code source} in {@code format}, with these options. */
    Report audit(List<Operation> operations, String source, InputFormat format, Policy policy, List<String> enable,
            List<String> disable, FailOn failOn);
}

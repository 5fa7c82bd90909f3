package dev.retryaudit.report;

import dev.retryaudit.model.internal.InputError;
import java.util.Objects;

/** What a report format prints instead of a report when the input could not be audited: the error and its exit code. */
public record InputFailure(String toolName, String toolVersion, int exitCode, InputError error) {
    public InputFailure {
        Objects.requireNonNull(toolName, "toolName");
        Objects.requireNonNull(toolVersion, "toolVersion");
        Objects.requireNonNull(error, "error");
    }
}

package dev.retryaudit.model;

import java.util.Objects;

/** The attempt of another operation inside which an operation ran (a nested retry layer). */
public record ParentRef(String operation, int attempt) {
    public ParentRef {
        Objects.requireNonNull(operation, "operation");
    }
}

package dev.retryaudit.model.values;

import java.io.Serializable;
import java.util.Objects;

/** The attempt of another operation inside which an operation ran (a nested retry layer). */
public record ParentRef(String operation, int attempt) implements Serializable {
    public ParentRef {
        Objects.requireNonNull(operation, "operation");
    }
}

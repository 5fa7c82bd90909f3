package dev.retryaudit.model;

import java.io.Serializable;
import java.util.Objects;

/** A free-form JSON value kept as compact text (an {@code attributes} object), copied into reports unchanged. */
public record RawJson(String json) implements Serializable {
    public RawJson {
        Objects.requireNonNull(json, "json");
    }
}

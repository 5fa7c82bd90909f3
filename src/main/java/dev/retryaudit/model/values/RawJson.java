package dev.retryaudit.model.values;

import java.io.Serializable;
import java.util.Objects;

/** A JSON value kept as compact text, which a finding's evidence copies into reports unchanged. */
public record RawJson(String json) implements Serializable {
    public RawJson {
        Objects.requireNonNull(json, "json");
    }
}

package dev.retryaudit.model;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The facts behind a finding, in the order they were added. Values are strings, numbers, booleans,
 * null, {@link RawJson}, or lists of those.
 */
public final class Evidence implements Serializable {
    private static final long serialVersionUID = 1L;

    private final LinkedHashMap<String, Object> values = new LinkedHashMap<>();
    private boolean frozen;

    public static Evidence of() {
        return new Evidence();
    }

    /** Adds a fact; refuses a value of a type that reports cannot print. */
    public Evidence put(String key, Object value) {
        if (frozen) {
            throw new UnsupportedOperationException("the evidence of a finding cannot change");
        }
        check(value);
        if (values.putIfAbsent(key, value) != null || key.isEmpty()) {
            throw new IllegalArgumentException("evidence key repeated or empty: " + key);
        }
        return this;
    }

    /** This evidence, or an unchangeable copy of it when it can still change: what a finding holds. */
    public Evidence frozen() {
        if (frozen) {
            return this;
        }
        Evidence copy = new Evidence();
        values.forEach((k, v) -> copy.values.put(k, v instanceof List<?> list
                ? Collections.unmodifiableList(new ArrayList<>(list)) : v));
        copy.frozen = true;
        return copy;
    }

    public Map<String, Object> asMap() {
        return Collections.unmodifiableMap(values);
    }

    private static void check(Object v) {
        if (v == null || v instanceof String || v instanceof Long || v instanceof Integer
                || v instanceof Double || v instanceof Boolean || v instanceof RawJson) {
            return;
        }
        if (v instanceof List<?> list) {
            list.forEach(Evidence::check);
            return;
        }
        throw new IllegalArgumentException("evidence value of unsupported type " + v.getClass());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Evidence e && e.values.equals(values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }
}

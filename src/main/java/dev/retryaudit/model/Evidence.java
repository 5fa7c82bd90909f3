package dev.retryaudit.model;

import dev.retryaudit.text.Times;
import dev.retryaudit.model.values.RawJson;
import java.io.Serializable;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * The facts behind a finding, in the order they were added. Values are strings, numbers, booleans,
 * null, or lists of those (and, from the built-in rules, JSON text copied as it is). Held as two short
 * arrays, since a large audit holds one per finding; a timestamp given by {@link #putTime} is held as
 * its milliseconds and formatted when read.
 */
public final class Evidence implements Serializable {
    private static final long serialVersionUID = 2L;
    private static final String[] NO_KEYS = {};
    private static final Object[] NO_VALUES = {};

    private String[] keys = NO_KEYS;
    private Object[] values = NO_VALUES;
    private int size;
    /** Bit i set: values[i] is a timestamp's milliseconds, read as {@link Times#format}. */
    private long times;
    private boolean frozen;

    public static Evidence of() {
        return new Evidence();
    }

    /** Adds a fact; refuses a value of a type that reports cannot print. */
    public Evidence put(String key, Object value) {
        check(value);
        return add(key, value);
    }

    /** Adds a timestamp given as epoch milliseconds: read as the string {@link Times#format} gives. */
    public Evidence putTime(String key, long millis) {
        add(key, millis);
        int at = indexOf(key);
        if (at < Long.SIZE) {
            times |= 1L << at;
        } else {
            values[at] = Times.format(millis);
        }
        return this;
    }

    private Evidence add(String key, Object value) {
        if (frozen) {
            throw new UnsupportedOperationException("the evidence of a finding cannot change");
        }
        int at = indexOf(key);
        if (key.isEmpty() || (at >= 0 && values[at] != null)) {
            throw new IllegalArgumentException("evidence key repeated or empty: " + key);
        }
        if (at >= 0) {
            values[at] = value;
            return this;
        }
        if (size == keys.length) {
            int capacity = Math.max(4, size * 2);
            keys = Arrays.copyOf(keys, capacity);
            values = Arrays.copyOf(values, capacity);
        }
        keys[size] = key;
        values[size] = value;
        size++;
        return this;
    }

    /** Whether a fact of this key was added. */
    public boolean has(String key) {
        return indexOf(key) >= 0;
    }

    /** This evidence, or an unchangeable copy of it when it can still change: what a finding holds. */
    public Evidence frozen() {
        if (frozen) {
            return this;
        }
        Evidence copy = new Evidence();
        copy.keys = Arrays.copyOf(keys, size);
        copy.values = new Object[size];
        for (int i = 0; i < size; i++) {
            copy.values[i] = values[i] instanceof List<?> list ? Collections.unmodifiableList(new ArrayList<>(list))
                    : values[i];
        }
        copy.size = size;
        copy.times = times;
        copy.frozen = true;
        return copy;
    }

    /** The number of facts. */
    public int size() {
        return size;
    }

    /** The key of the {@code i}th fact added, from 0. */
    public String key(int i) {
        return keys[Objects.checkIndex(i, size)];
    }

    /** The value of the {@code i}th fact added, from 0. */
    public Object value(int i) {
        Object v = values[Objects.checkIndex(i, size)];
        return i < Long.SIZE && (times & 1L << i) != 0 ? Times.format((Long) v) : v;
    }

    /** The facts as an unchangeable map in the order they were added. */
    public Map<String, Object> asMap() {
        return new AbstractMap<>() {
            @Override
            public Set<Entry<String, Object>> entrySet() {
                return new AbstractSet<>() {
                    @Override
                    public Iterator<Entry<String, Object>> iterator() {
                        return new Iterator<>() {
                            private int next;

                            @Override
                            public boolean hasNext() {
                                return next < size;
                            }

                            @Override
                            public Entry<String, Object> next() {
                                if (next >= size) {
                                    throw new NoSuchElementException();
                                }
                                next++;
                                return new SimpleImmutableEntry<>(keys[next - 1], value(next - 1));
                            }
                        };
                    }

                    @Override
                    public int size() {
                        return size;
                    }
                };
            }

            @Override
            public boolean containsKey(Object key) {
                return key instanceof String s && has(s);
            }
        };
    }

    private int indexOf(String key) {
        for (int i = 0; i < size; i++) {
            if (keys[i].equals(key)) {
                return i;
            }
        }
        return -1;
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
        return o instanceof Evidence e && e.asMap().equals(asMap());
    }

    @Override
    public int hashCode() {
        return asMap().hashCode();
    }
}

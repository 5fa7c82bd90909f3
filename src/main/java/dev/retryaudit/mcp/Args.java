package dev.retryaudit.mcp;

import dev.retryaudit.text.Escaping;
import dev.retryaudit.text.Suggestions;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The arguments of one tool call, read with the checks and messages every tool shares. */
final class Args {
    private final Map<?, ?> map;
    private final String prefix;

    Args(Map<String, Object> map, Set<String> known) throws ToolError {
        this(map, known, "");
    }

    private Args(Map<?, ?> map, Set<String> known, String prefix) throws ToolError {
        this.map = map == null ? Map.of() : map;
        this.prefix = prefix;
        for (Object key : this.map.keySet()) {
            String name = String.valueOf(key);
            if (!known.contains(name)) {
                List<String> close = Suggestions.closestAll(name, List.copyOf(known), 1);
                throw new ToolError("unknown argument '" + Escaping.shortened(prefix + name, 80) + "'"
                        + (close.isEmpty() ? "" : " (did you mean " + prefix + close.get(0) + "?)"));
            }
        }
    }

    /** The members of the object argument {@code name} as arguments named {@code name.member}, or null when absent. */
    Args members(String name, Set<String> known) throws ToolError {
        Map<?, ?> v = object(name);
        return v == null ? null : new Args(v, known, label(name) + ".");
    }

    /** How messages name the argument {@code name}: with the object it is a member of. */
    private String label(String name) {
        return prefix + name;
    }

    /** The argument {@code name} as the call gives it (a string, number, list or map), or null when absent. */
    Object value(String name) {
        return map.get(name);
    }

    /** A string argument, or null when absent. */
    String string(String name) throws ToolError {
        Object v = map.get(name);
        if (v == null || v instanceof String) {
            return (String) v;
        }
        throw new ToolError("invalid value for '" + label(name) + "': expected a string");
    }

    String string(String name, String absent) throws ToolError {
        String v = string(name);
        return v == null ? absent : v;
    }

    String required(String name) throws ToolError {
        String v = string(name);
        if (v == null) {
            throw new ToolError("missing argument '" + label(name) + "'");
        }
        return v;
    }

    /** A list of strings, empty when absent. */
    List<String> strings(String name) throws ToolError {
        Object v = map.get(name);
        if (v == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        if (v instanceof List<?> list) {
            for (Object o : list) {
                if (!(o instanceof String s)) {
                    throw new ToolError("invalid value for '" + label(name) + "': expected an array of strings");
                }
                out.add(s);
            }
            return out;
        }
        throw new ToolError("invalid value for '" + label(name) + "': expected an array of strings");
    }

    /** A whole number in {@code min..max}, {@code absent} when absent. */
    long integer(String name, long min, long max, long absent) throws ToolError {
        Object v = map.get(name);
        if (v == null) {
            return absent;
        }
        if (!whole(v)) {
            throw new ToolError("invalid value for '" + label(name) + "': expected a whole number");
        }
        if (!fitsLong(v) || ((Number) v).longValue() < min || ((Number) v).longValue() > max) {
            throw new ToolError("invalid value for '" + label(name) + "': must be between " + min + " and " + max);
        }
        return ((Number) v).longValue();
    }

    /** A list of whole numbers, each in {@code min..max}; {@code absent} when absent. */
    List<Long> integers(String name, long min, long max, List<Long> absent) throws ToolError {
        Object v = map.get(name);
        if (v == null) {
            return absent;
        }
        if (!(v instanceof List<?> list)) {
            throw new ToolError("invalid value for '" + label(name) + "': expected an array of whole numbers");
        }
        List<Long> out = new ArrayList<>();
        for (Object o : list) {
            if (!whole(o)) {
                throw new ToolError("invalid value for '" + label(name) + "': expected an array of whole numbers");
            }
            long n = ((Number) o).longValue();
            if (!fitsLong(o) || n < min || n > max) {
                throw new ToolError("invalid value for '" + label(name) + "': each must be between " + min + " and " + max);
            }
            out.add(n);
        }
        return out;
    }

    /** A boolean argument, {@code absent} when absent. */
    boolean bool(String name, boolean absent) throws ToolError {
        Object v = map.get(name);
        if (v == null) {
            return absent;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        throw new ToolError("invalid value for '" + label(name) + "': expected true or false");
    }

    /** An object argument, or null when absent. */
    Map<?, ?> object(String name) throws ToolError {
        Object v = map.get(name);
        if (v == null || v instanceof Map<?, ?>) {
            return (Map<?, ?>) v;
        }
        throw new ToolError("invalid value for '" + label(name) + "': expected an object");
    }

    private static boolean whole(Object v) {
        return v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte || v instanceof BigInteger
                || v instanceof BigDecimal d && d.stripTrailingZeros().scale() <= 0
                || v instanceof Number n && !Double.isInfinite(n.doubleValue()) && n.doubleValue() == Math.rint(n.doubleValue());
    }

    /** Whether the whole number {@code v} is a long as it is, not saturated or cut to one (1e300, 2^64). */
    private static boolean fitsLong(Object v) {
        if (v instanceof BigInteger b) {
            return b.bitLength() < 64;
        }
        if (v instanceof BigDecimal d) {
            return d.toBigInteger().bitLength() < 64;
        }
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            return d >= -0x1p63 && d < 0x1p63;
        }
        return true;
    }

    /** {@code parsed}, or an error naming the values {@code name} allows. */
    static <T> T choice(String name, String value, T parsed, List<String> allowed) throws ToolError {
        if (parsed == null) {
            throw new ToolError("invalid value for '" + name + "': expected one of " + String.join(", ", allowed));
        }
        return parsed;
    }
}

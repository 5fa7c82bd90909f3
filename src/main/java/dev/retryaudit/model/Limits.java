package dev.retryaudit.model;

import java.io.Serializable;

/**
 * Input limits, enforced while reading; an input over one is rejected naming the {@link Limit}. {@code stringLength}
 * counts the characters (code points) of a string value; field names are limited to {@link #nameLength()}.
 */
public record Limits(long bytes, long operations, int attemptsPerOperation, int stringLength, int depth)
        implements Serializable {
    /** The defaults: 1 GiB, 5,000,000 operations, 10,000 attempts, 65,536 characters, depth 64. */
    public static final Limits DEFAULTS = new Limits(1L << 30, 5_000_000, 10_000, 65_536, 64);

    /** The deepest nesting that can be honoured: the readers that copy or walk a value recurse per level. */
    public static final int MAX_DEPTH = 1_000;

    /** The shortest limit on field names, so that a small string limit does not reject the formats' own keys. */
    public static final int MIN_NAME_LENGTH = 1_024;

    public Limits {
        if (bytes < 1 || operations < 1 || attemptsPerOperation < 1 || stringLength < 1 || depth < 1) {
            throw new IllegalArgumentException("limits must be at least 1");
        }
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException("the depth limit is at most " + MAX_DEPTH);
        }
    }

    /** The longest field name, in characters: the string limit, but never less than {@link #MIN_NAME_LENGTH}. */
    public int nameLength() {
        return Math.max(stringLength, MIN_NAME_LENGTH);
    }

    /**
     * How to raise {@code limit} (not {@link Limit#MEMORY}) through {@code setting}, the name of its
     * setting where the caller sets it: {@code raise it with SETTING}, and the depth's own bound.
     */
    public static String raiseWith(Limit limit, String setting) {
        return "raise it with " + setting + (limit == Limit.DEPTH ? ", at most " + MAX_DEPTH : "");
    }

    /** The largest value {@code limit} (not {@link Limit#MEMORY}) can be set to: its type's, or the depth's own bound. */
    public static long max(Limit limit) {
        return switch (limit) {
            case BYTES, OPERATIONS -> Long.MAX_VALUE;
            case ATTEMPTS, STRING -> Integer.MAX_VALUE;
            case DEPTH -> MAX_DEPTH;
            case MEMORY -> throw new IllegalArgumentException("the heap is no setting");
        };
    }

    /**
     * How every surface says that a value given for {@code limit} is out of its range: below 1
     * ({@code belowOne}), or above {@link #max}.
     */
    public static String outOfRange(Limit limit, boolean belowOne) {
        return belowOne ? "must be at least 1"
                : "must be at most " + max(limit) + (limit == Limit.DEPTH ? ", the deepest nesting this build can read" : "");
    }
}

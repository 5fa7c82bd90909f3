package dev.retryaudit.input;

/** Input limits, each with the flag that raises it; enforced while reading. */
public record Limits(long bytes, long operations, int attemptsPerOperation, int stringLength, int depth) {
    /** The defaults: 1 GiB, 5,000,000 operations, 10,000 attempts, 65,536 characters, depth 64. */
    public static final Limits DEFAULTS = new Limits(1L << 30, 5_000_000, 10_000, 65_536, 64);

    public Limits {
        if (bytes < 1 || operations < 1 || attemptsPerOperation < 1 || stringLength < 1 || depth < 1) {
            throw new IllegalArgumentException("limits must be at least 1");
        }
    }
}

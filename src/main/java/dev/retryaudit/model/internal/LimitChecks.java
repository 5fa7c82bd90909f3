package dev.retryaudit.model.internal;

import dev.retryaudit.model.Limit;
import dev.retryaudit.model.Limits;
import java.util.function.Function;

/** The one check of each count limit, which every reader makes: over the limit is an {@link InputException} naming it. */
public final class LimitChecks {
    private LimitChecks() {
    }

    /**
     * Rejects a {@code holder} ("operation", "trace", "case") that would hold {@code count} {@code things}
     * (attempts, or the gaps between them), more than the attempts-per-operation limit allows; {@code at}
     * places the error.
     */
    public static void attempts(Limits limits, long count, String holder, String things,
            Function<String, InputException> at) throws InputException {
        if (count > limits.attemptsPerOperation()) {
            throw at.apply(holder + " has more than " + limits.attemptsPerOperation() + " " + things
                    + ", the attempts-per-operation limit").over(Limit.ATTEMPTS);
        }
    }

    /** Rejects an input set that would hold {@code count} operations, more than the operations limit allows. */
    public static void operations(Limits limits, long count, Function<String, InputException> at)
            throws InputException {
        if (count > limits.operations()) {
            throw at.apply("more than " + limits.operations() + " operations, the operations limit")
                    .over(Limit.OPERATIONS);
        }
    }
}

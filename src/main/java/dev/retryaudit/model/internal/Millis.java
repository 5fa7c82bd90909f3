package dev.retryaudit.model.internal;

import dev.retryaudit.model.Attempt;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

/**
 * An attempt's times as the model holds them, epoch milliseconds with {@code Times.NONE} for absent
 * (the duration in milliseconds, NaN for absent): what the rules compare, with no object made for a time.
 */
public final class Millis {
    private static final MethodHandle STARTED;
    private static final MethodHandle ENDED;
    private static final MethodHandle RESPONSE;
    private static final MethodHandle DURATION;

    static {
        try {
            var lookup = Models.lookup(Attempt.class);
            STARTED = lookup.findVirtual(Attempt.class, "startedAtMillis", MethodType.methodType(long.class));
            ENDED = lookup.findVirtual(Attempt.class, "endedAtMillis", MethodType.methodType(long.class));
            RESPONSE = lookup.findVirtual(Attempt.class, "responseMillis", MethodType.methodType(long.class));
            DURATION = lookup.findVirtual(Attempt.class, "durationMillis", MethodType.methodType(double.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Millis() {
    }

    /** When {@code a} started, or {@code Times.NONE}. */
    public static long startedAt(Attempt a) {
        try {
            return (long) STARTED.invokeExact(a);
        } catch (Throwable e) {
            throw Models.rethrown(e);
        }
    }

    /** When {@code a} ended, or {@code Times.NONE}. */
    public static long endedAt(Attempt a) {
        try {
            return (long) ENDED.invokeExact(a);
        } catch (Throwable e) {
            throw Models.rethrown(e);
        }
    }

    /** When the response to {@code a} (or its timeout) came, as {@link Attempt#responseTime()}, or {@code Times.NONE}. */
    public static long responseAt(Attempt a) {
        try {
            return (long) RESPONSE.invokeExact(a);
        } catch (Throwable e) {
            throw Models.rethrown(e);
        }
    }

    /** How long {@code a} took in milliseconds, or NaN. */
    public static double durationMs(Attempt a) {
        try {
            return (double) DURATION.invokeExact(a);
        } catch (Throwable e) {
            throw Models.rethrown(e);
        }
    }
}

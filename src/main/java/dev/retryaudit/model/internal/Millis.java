package dev.retryaudit.model.internal;

import dev.retryaudit.model.Attempt;
import java.lang.invoke.LambdaConversionException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * An attempt's times as the model holds them, epoch milliseconds with {@code Times.NONE} for absent
 * (the duration in milliseconds, NaN for absent): what the rules compare, with no object made for a time.
 */
public final class Millis {
    private static final ToLongFunction<Attempt> STARTED;
    private static final ToLongFunction<Attempt> ENDED;
    private static final ToLongFunction<Attempt> RESPONSE;
    private static final ToDoubleFunction<Attempt> DURATION;

    static {
        try {
            MethodHandles.Lookup lookup = Models.lookup(Attempt.class);
            STARTED = Models.direct(ToLongFunction.class,
                    lookup.findVirtual(Attempt.class, "startedAtMillis", MethodType.methodType(long.class)));
            ENDED = Models.direct(ToLongFunction.class,
                    lookup.findVirtual(Attempt.class, "endedAtMillis", MethodType.methodType(long.class)));
            RESPONSE = Models.direct(ToLongFunction.class,
                    lookup.findVirtual(Attempt.class, "responseMillis", MethodType.methodType(long.class)));
            DURATION = Models.direct(ToDoubleFunction.class,
                    lookup.findVirtual(Attempt.class, "durationMillis", MethodType.methodType(double.class)));
        } catch (ReflectiveOperationException | LambdaConversionException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Millis() {
    }

    /** When {@code a} started, or {@code Times.NONE}. */
    public static long startedAt(Attempt a) {
        return STARTED.applyAsLong(a);
    }

    /** When {@code a} ended, or {@code Times.NONE}. */
    public static long endedAt(Attempt a) {
        return ENDED.applyAsLong(a);
    }

    /** When the response to {@code a} (or its timeout) came, as {@link Attempt#responseTime()}, or {@code Times.NONE}. */
    public static long responseAt(Attempt a) {
        return RESPONSE.applyAsLong(a);
    }

    /** How long {@code a} took in milliseconds, or NaN. */
    public static double durationMs(Attempt a) {
        return DURATION.applyAsDouble(a);
    }
}

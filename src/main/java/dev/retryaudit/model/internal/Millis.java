package dev.retryaudit.model.internal;

import dev.retryaudit.model.Attempt;
import java.lang.reflect.Field;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * An attempt's times as the model holds them, epoch milliseconds with {@code Times.NONE} for absent
 * (the duration in milliseconds, NaN for absent): what the rules compare, with no object made for a time.
 */
@SuppressWarnings("unchecked") // the fields' declared types, read through reflection
public final class Millis {
    private static final ToLongFunction<Attempt> STARTED;
    private static final ToLongFunction<Attempt> ENDED;
    private static final ToLongFunction<Attempt> RESPONSE;
    private static final ToDoubleFunction<Attempt> DURATION;

    static {
        try {
            STARTED = (ToLongFunction<Attempt>) times("STARTED_AT");
            ENDED = (ToLongFunction<Attempt>) times("ENDED_AT");
            RESPONSE = (ToLongFunction<Attempt>) times("RESPONSE_AT");
            DURATION = (ToDoubleFunction<Attempt>) times("DURATION_MS");
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Millis() {
    }

    /**
     * The accessor the model holds in its private field {@code name}: read once, with the module's access
     * to itself, so that no class is spun for it (the model keeps no reference to this package).
     */
    private static Object times(String name) throws ReflectiveOperationException {
        Field field = Attempt.class.getDeclaredField(name);
        field.setAccessible(true);
        return field.get(null);
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

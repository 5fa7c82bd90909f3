package dev.retryaudit.model;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** Converts enum constants to and from their lower-case wire names ({@code RETRY_TRACE} is {@code retry-trace} or {@code retry_trace}). */
public final class Wire {
    private Wire() {
    }

    /** The wire name of a constant: lower case, with the given separator for underscores. */
    public static String name(Enum<?> e, char separator) {
        return e.name().toLowerCase(Locale.ROOT).replace('_', separator);
    }

    /** The constant whose wire name is {@code value}, or null. */
    public static <E extends Enum<E>> E parse(Class<E> type, String value, char separator) {
        for (E e : type.getEnumConstants()) {
            if (name(e, separator).equals(value)) {
                return e;
            }
        }
        return null;
    }

    /** All wire names of an enum, in declaration order. */
    public static List<String> names(Class<? extends Enum<?>> type, char separator) {
        return Arrays.stream(type.getEnumConstants()).map(e -> name(e, separator)).toList();
    }
}

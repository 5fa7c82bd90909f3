package dev.retryaudit.text;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Converts enum constants to and from their lower-case wire names ({@code RETRY_TRACE} is {@code retry-trace} or {@code retry_trace}). */
public final class Wire {
    /** Per enum type, the constants by wire name with '_' and with '-' (parsing runs for every attempt of a trace). */
    private static final ClassValue<Map<String, Enum<?>>[]> BY_NAME = new ClassValue<>() {
        @Override
        @SuppressWarnings("unchecked")
        protected Map<String, Enum<?>>[] computeValue(Class<?> type) {
            Map<String, Enum<?>>[] maps = new Map[] {new HashMap<>(), new HashMap<>()};
            for (Object o : type.getEnumConstants()) {
                Enum<?> e = (Enum<?>) o;
                maps[0].put(name(e, '_'), e);
                maps[1].put(name(e, '-'), e);
            }
            return maps;
        }
    };

    private Wire() {
    }

    /** The wire name of a constant: lower case, with the given separator for underscores. */
    public static String name(Enum<?> e, char separator) {
        return e.name().toLowerCase(Locale.ROOT).replace('_', separator);
    }

    /** The constant whose wire name (with {@code separator}, '_' or '-') is {@code value}, or null. */
    public static <E extends Enum<E>> E parse(Class<E> type, String value, char separator) {
        return type.cast(BY_NAME.get(type)[separator == '_' ? 0 : 1].get(value));
    }

    /** All wire names of an enum, in declaration order. */
    public static List<String> names(Class<? extends Enum<?>> type, char separator) {
        return Arrays.stream(type.getEnumConstants()).map(e -> name(e, separator)).toList();
    }
}

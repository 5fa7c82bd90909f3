package dev.retryaudit.input.foreign;

import dev.retryaudit.model.Field;
import java.util.EnumSet;
import java.util.Set;

/**
 * One shared immutable set for each combination of fields that the foreign readers find carried,
 * so that a file of many operations does not hold a set per operation.
 */
final class CarriedFields {
    @SuppressWarnings("unchecked")
    private static final Set<Field>[] SHARED = new Set[1 << Field.values().length];

    private CarriedFields() {
    }

    static synchronized Set<Field> of(EnumSet<Field> fields) {
        int mask = 0;
        for (Field f : fields) {
            mask |= 1 << f.ordinal();
        }
        if (SHARED[mask] == null) {
            SHARED[mask] = Set.copyOf(fields);
        }
        return SHARED[mask];
    }
}

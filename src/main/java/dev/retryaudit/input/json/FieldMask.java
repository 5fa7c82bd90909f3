package dev.retryaudit.input.json;

import dev.retryaudit.input.InputException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Duplicate-key detection for the objects of our own formats, where every field name is known: one
 * bit per name in a {@code long}. Much cheaper than Jackson's per-object hash set, which the native
 * readers switch off (free-form objects are checked by {@link JsonCursor#optObjectCopy()}).
 */
public final class FieldMask {
    private final Map<String, Long> bits = new LinkedHashMap<>();

    public FieldMask(List<String> names) {
        if (names.size() > 64) {
            throw new IllegalArgumentException("at most 64 names");
        }
        for (int i = 0; i < names.size(); i++) {
            bits.put(names.get(i), 1L << i);
        }
    }

    /**
     * Marks {@code name}, the current field name, as seen in an object whose mask so far is
     * {@code seen}; throws at the name on a second sighting or an unknown name.
     */
    public long mark(long seen, String name, JsonCursor c) throws InputException {
        Long bit = bits.get(name);
        if (bit == null) {
            throw c.unknownField(name, bits.keySet());
        }
        if ((seen & bit) != 0) {
            throw c.error("duplicate field: the object already has it");
        }
        return seen | bit;
    }
}

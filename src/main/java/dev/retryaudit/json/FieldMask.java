package dev.retryaudit.json;

import dev.retryaudit.model.internal.InputException;
import java.util.List;

/**
 * Duplicate-key detection for the objects of our own formats, where every field name is known: one
 * bit per name in a {@code long}. Much cheaper than Jackson's per-object hash set, which the native
 * readers switch off (free-form objects are checked by {@link JsonCursor#optObjectCopy()}). The name's
 * position in the list also lets a reader dispatch on an int instead of comparing strings again.
 */
public final class FieldMask {
    private final List<String> names;
    /** Open addressing over the names' (cached) hash codes; {@code positions} holds each slot's name position. */
    private final String[] table;
    private final byte[] positions;
    /**
     * The last equal instance met of each slot's name: a parser hands the same instance for a name
     * again and again, which is then found without comparing characters. Racy but safe: a stale
     * entry only costs the comparison.
     */
    private final String[] aliases;

    public FieldMask(List<String> names) {
        if (names.size() > 64) {
            throw new IllegalArgumentException("at most 64 names");
        }
        this.names = List.copyOf(names);
        int size = Integer.highestOneBit(Math.max(4, names.size() * 4) - 1) << 1;
        table = new String[size];
        positions = new byte[size];
        aliases = new String[size];
        for (int p = 0; p < names.size(); p++) {
            int i = slot(names.get(p));
            while (table[i] != null) {
                i = (i + 1) & (size - 1);
            }
            table[i] = names.get(p);
            positions[i] = (byte) p;
        }
    }

    /** The position of {@code name} in the list, or -1 when it is none of the names. */
    public int position(String name) {
        for (int i = slot(name);; i = (i + 1) & (table.length - 1)) {
            String known = table[i];
            if (known == null) {
                return -1;
            }
            if (known == name || aliases[i] == name) {
                return positions[i];
            }
            if (known.equals(name)) {
                aliases[i] = name;
                return positions[i];
            }
        }
    }

    /**
     * The position of {@code name}, the current field name, in an object whose mask so far is
     * {@code seen} (the caller adds {@code 1L << position}); throws at the name on a second sighting
     * or an unknown name.
     */
    public int position(long seen, String name, JsonCursor c) throws InputException {
        int p = position(name);
        if (p < 0) {
            throw c.unknownField(name, names);
        }
        if ((seen & (1L << p)) != 0) {
            throw c.error("duplicate field: the object already has it");
        }
        return p;
    }

    /**
     * Marks {@code name}, the current field name, as seen in an object whose mask so far is
     * {@code seen}; throws at the name on a second sighting or an unknown name.
     */
    public long mark(long seen, String name, JsonCursor c) throws InputException {
        return seen | 1L << position(seen, name, c);
    }

    private int slot(String name) {
        int h = name.hashCode();
        return (h ^ (h >>> 16)) & (table.length - 1);
    }
}

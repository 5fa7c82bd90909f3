package dev.retryaudit.input.json;

import java.util.HashMap;
import java.util.Map;

/**
 * Shares one instance among equal short strings (tool names, methods, targets, run ids, retry
 * reasons) for a reader that must hold a whole file's attempts. Bounded: past its capacity it
 * returns strings unshared.
 */
public final class StringPool {
    private static final int MAX_LENGTH = 256;
    private final Map<String, String> pool = new HashMap<>();
    private final int capacity;

    public StringPool(int capacity) {
        this.capacity = capacity;
    }

    public String share(String s) {
        if (s == null || s.length() > MAX_LENGTH) {
            return s;
        }
        String shared = pool.get(s);
        if (shared != null) {
            return shared;
        }
        if (pool.size() < capacity) {
            pool.put(s, s);
        }
        return s;
    }
}

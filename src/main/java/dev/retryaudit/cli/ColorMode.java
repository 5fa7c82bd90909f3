package dev.retryaudit.cli;

import dev.retryaudit.text.Wire;
import java.util.List;
import java.util.Map;

/** The {@code --color} choice, and the one decision whether a report gets ANSI colours. */
public enum ColorMode {
    AUTO,
    ALWAYS,
    NEVER;

    public String id() {
        return Wire.name(this, '-');
    }

    /** The mode named {@code id}, or null. */
    public static ColorMode parse(String id) {
        return Wire.parse(ColorMode.class, id, '-');
    }

    public static List<String> ids() {
        return Wire.names(ColorMode.class, '-');
    }

    /**
     * Whether to colour: {@code always} and {@code never} say so; {@code auto} colours only a terminal,
     * and never when {@code NO_COLOR} is set to a non-empty value (no-color.org).
     */
    public boolean enabled(boolean isTerminal, Map<String, String> env) {
        return switch (this) {
            case ALWAYS -> true;
            case NEVER -> false;
            case AUTO -> isTerminal && env.getOrDefault("NO_COLOR", "").isEmpty();
        };
    }
}

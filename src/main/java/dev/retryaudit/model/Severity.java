package dev.retryaudit.model;

import dev.retryaudit.text.Wire;

/** How serious a finding is; declared from most to least severe. */
public enum Severity {
    ERROR,
    WARNING,
    NOTE;

    /** Named once: reports print the severity of every finding. */
    private final String id = Wire.name(this, '_');

    /** The lower-case name used in reports, policies and flags. */
    public String id() {
        return id;
    }

    /** Whether this severity is the same as or more severe than {@code threshold}. */
    public boolean atLeast(Severity threshold) {
        return ordinal() <= threshold.ordinal();
    }

    /** The severity named {@code id}, or null. */
    public static Severity parse(String id) {
        return Wire.parse(Severity.class, id, '_');
    }
}

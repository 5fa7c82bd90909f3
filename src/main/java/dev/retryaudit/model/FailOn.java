package dev.retryaudit.model;

import dev.retryaudit.text.Wire;
import java.util.List;
import java.util.Map;

/** The lowest severity that fails the audit ({@code --fail-on}); {@link #NEVER} lets every audit pass. */
public enum FailOn {
    ERROR,
    WARNING,
    NOTE,
    NEVER;

    public String id() {
        return Wire.name(this, '-');
    }

    /** Whether a finding of severity {@code s} fails the audit. */
    public boolean fails(Severity s) {
        return switch (this) {
            case ERROR -> s.atLeast(Severity.ERROR);
            case WARNING -> s.atLeast(Severity.WARNING);
            case NOTE -> s.atLeast(Severity.NOTE);
            case NEVER -> false;
        };
    }

    /** Whether an audit with {@code counts} findings of each severity passes: none at or above this one. */
    public boolean passes(Map<Severity, Long> counts) {
        for (Map.Entry<Severity, Long> e : counts.entrySet()) {
            if (e.getValue() > 0 && fails(e.getKey())) {
                return false;
            }
        }
        return true;
    }

    public static FailOn parse(String id) {
        return Wire.parse(FailOn.class, id, '-');
    }

    public static List<String> ids() {
        return Wire.names(FailOn.class, '-');
    }
}

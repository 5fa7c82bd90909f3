package dev.retryaudit.report;

import dev.retryaudit.model.Severity;
import dev.retryaudit.text.Wire;
import java.util.List;

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

    public static FailOn parse(String id) {
        return Wire.parse(FailOn.class, id, '-');
    }

    public static List<String> ids() {
        return Wire.names(FailOn.class, '-');
    }
}

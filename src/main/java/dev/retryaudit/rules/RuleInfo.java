package dev.retryaudit.rules;

import dev.retryaudit.model.Severity;
import java.util.Objects;
import java.util.regex.Pattern;

/** A rule's metadata, declared once in the rule's class and read by the engine, {@code rules}, {@code explain} and SARIF. */
public record RuleInfo(String id, Severity severity, String summary) {
    private static final Pattern ID = Pattern.compile("[a-z]+(-[a-z]+)*/[a-z]+(-[a-z]+)*");

    public RuleInfo {
        Objects.requireNonNull(severity, "severity");
        if (id == null || !ID.matcher(id).matches()) {
            throw new IllegalArgumentException("rule id must be family/name in lower-case words: " + id);
        }
        if (summary == null || summary.isBlank() || summary.contains("\n")) {
            throw new IllegalArgumentException("rule " + id + " needs a one-line summary");
        }
    }

    /** The family: the part of the id before the slash. */
    public String family() {
        return id.substring(0, id.indexOf('/'));
    }

    /** The name within the family: the part after the slash. */
    public String name() {
        return id.substring(id.indexOf('/') + 1);
    }
}

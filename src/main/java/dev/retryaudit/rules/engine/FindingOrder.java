package dev.retryaudit.rules.engine;

import dev.retryaudit.model.Finding;
import java.util.Comparator;

/** The one order of findings in every report: source, line, column, attempt, rule id, then the rest for a total order. */
public final class FindingOrder {
    public static final Comparator<Finding> ORDER = Comparator
            .comparingInt((Finding f) -> f.location().sourceIndex())
            .thenComparingLong(f -> f.location().line())
            .thenComparingLong(f -> f.location().column())
            .thenComparing(Finding::attempt, Comparator.nullsFirst(Comparator.naturalOrder()))
            .thenComparing(Finding::rule)
            .thenComparing(Finding::operation, Comparator.nullsFirst(Comparator.naturalOrder()))
            .thenComparing(Finding::message);

    private FindingOrder() {
    }
}

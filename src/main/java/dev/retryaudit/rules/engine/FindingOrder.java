package dev.retryaudit.rules.engine;

import dev.retryaudit.model.Finding;
import dev.retryaudit.model.Location;
import java.util.Comparator;

/** The one order of findings in every report: source, line, column, attempt, rule id, then the rest for a total order. */
public final class FindingOrder {
    /** Written out rather than chained: a large audit sorts hundreds of thousands of findings. */
    public static final Comparator<Finding> ORDER = FindingOrder::compare;

    private FindingOrder() {
    }

    private static int compare(Finding a, Finding b) {
        Location x = a.location();
        Location y = b.location();
        int c = Integer.compare(x.sourceIndex(), y.sourceIndex());
        if (c == 0) {
            c = Long.compare(x.line(), y.line());
        }
        if (c == 0) {
            c = Long.compare(x.column(), y.column());
        }
        if (c == 0) {
            c = nullsFirst(a.attempt(), b.attempt());
        }
        if (c == 0) {
            c = a.rule().compareTo(b.rule());
        }
        if (c == 0) {
            c = nullsFirst(a.operation(), b.operation());
        }
        return c != 0 ? c : a.message().compareTo(b.message());
    }

    private static <T extends Comparable<T>> int nullsFirst(T a, T b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        return a.compareTo(b);
    }
}

package dev.retryaudit.rules.engine;

import dev.retryaudit.model.Finding;
import dev.retryaudit.model.Location;
import java.io.ByteArrayOutputStream;
import java.util.Comparator;

/**
 * The one order of findings in every report: source, line, column, attempt, rule id, then the rest for a total
 * order; as a comparator, and as bytes ({@link #key}) for an engine that sorts findings as binary values.
 */
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

    /**
     * {@code f}'s place in {@link #ORDER} as bytes that compare, unsigned and byte by byte (as Spark sorts binary
     * columns), as the findings do: numbers big-endian with the sign bit flipped, absent values before present
     * ones, strings as their UTF-16 units (Java's string order) each shifted up by one and ended by zeros, so that
     * a prefix sorts first.
     */
    public static byte[] key(Finding f) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 + 3 * f.message().length());
        number(out, f.location().sourceIndex(), 4);
        number(out, f.location().line(), 8);
        number(out, f.location().column(), 8);
        out.write(f.attempt() == null ? 0 : 1);
        number(out, f.attempt() == null ? 0 : f.attempt(), 4);
        text(out, f.rule());
        out.write(f.operation() == null ? 0 : 1);
        text(out, f.operation() == null ? "" : f.operation());
        text(out, f.message());
        return out.toByteArray();
    }

    private static void number(ByteArrayOutputStream out, long v, int bytes) {
        long flipped = v ^ (1L << (8 * bytes - 1));
        for (int i = bytes - 1; i >= 0; i--) {
            out.write((int) (flipped >>> (8 * i)) & 0xFF);
        }
    }

    private static void text(ByteArrayOutputStream out, String s) {
        for (int i = 0; i < s.length(); i++) {
            int unit = s.charAt(i) + 1;
            out.write(unit >>> 16);
            out.write(unit >>> 8 & 0xFF);
            out.write(unit & 0xFF);
        }
        out.write(0);
        out.write(0);
        out.write(0);
    }
}

package dev.retryaudit.spark;

import dev.retryaudit.model.Finding;
import java.io.ByteArrayOutputStream;

/**
 * The report's order of findings (source, line, column, attempt, rule, operation, message) as bytes
 * that compare, unsigned and byte by byte as Spark sorts binary columns, as the findings do: numbers
 * big-endian with the sign bit flipped, absent values before present ones, strings as their UTF-16
 * units (Java's string order) each shifted up by one and ended by zeros, so a prefix sorts first.
 */
final class OrderKey {
    private OrderKey() {
    }

    static byte[] of(Finding f) {
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

package dev.retryaudit.text;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Timestamps are held as epoch milliseconds in a {@code long}; {@link #NONE} marks an absent one.
 * Primitive times keep attempts small when a whole spans file must be grouped in memory.
 */
public final class Times {
    /** The value of an absent timestamp. */
    public static final long NONE = Long.MIN_VALUE;

    /** Days of the years 0000 to 9999, which the fast path of {@link #format} prints; others take the formatter. */
    private static final long FIRST_DAY = LocalDate.of(0, 1, 1).toEpochDay();
    private static final long LAST_DAY = LocalDate.of(9999, 12, 31).toEpochDay();

    private Times() {
    }

    public static boolean present(long millis) {
        return millis != NONE;
    }

    /** RFC 3339 in UTC with milliseconds, as reports print times. */
    public static String format(long millis) {
        long day = Math.floorDiv(millis, 86_400_000L);
        LocalDate date = day >= FIRST_DAY && day <= LAST_DAY ? LocalDate.ofEpochDay(day) : null;
        if (date == null) {
            return Formatter.UTC_MILLIS.format(Instant.ofEpochMilli(millis));
        }
        int ms = (int) Math.floorMod(millis, 86_400_000L);
        char[] c = new char[24];
        digits(c, 0, date.getYear(), 4);
        c[4] = '-';
        digits(c, 5, date.getMonthValue(), 2);
        c[7] = '-';
        digits(c, 8, date.getDayOfMonth(), 2);
        c[10] = 'T';
        digits(c, 11, ms / 3_600_000, 2);
        c[13] = ':';
        digits(c, 14, ms / 60_000 % 60, 2);
        c[16] = ':';
        digits(c, 17, ms / 1000 % 60, 2);
        c[19] = '.';
        digits(c, 20, ms % 1000, 3);
        c[23] = 'Z';
        return new String(c);
    }

    /** Writes {@code value} as {@code width} decimal digits, zero-padded, at {@code at}. */
    private static void digits(char[] c, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            c[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }

    /** The formatter of years outside 0000 to 9999, loaded only when one is printed. */
    private static final class Formatter {
        static final DateTimeFormatter UTC_MILLIS =
                DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSX").withZone(ZoneOffset.UTC);
    }
}

package dev.retryaudit.model;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Timestamps are held as epoch milliseconds in a {@code long}; {@link #NONE} marks an absent one.
 * Primitive times keep attempts small when a whole spans file must be grouped in memory.
 */
public final class Times {
    /** The value of an absent timestamp. */
    public static final long NONE = Long.MIN_VALUE;

    private static final DateTimeFormatter UTC_MILLIS =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSX").withZone(ZoneOffset.UTC);

    private Times() {
    }

    public static boolean present(long millis) {
        return millis != NONE;
    }

    /** RFC 3339 in UTC with milliseconds, as reports print times. */
    public static String format(long millis) {
        return UTC_MILLIS.format(Instant.ofEpochMilli(millis));
    }
}

package dev.retryaudit.http;

import dev.retryaudit.text.Times;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;

/**
 * Parses an HTTP-date (RFC 9110 §5.6.7) in any of its three forms, IMF-fixdate
 * ({@code Sun, 06 Nov 1994 08:49:37 GMT}), RFC 850 ({@code Sunday, 06-Nov-94 08:49:37 GMT}) and
 * asctime ({@code Sun Nov  6 08:49:37 1994}), into epoch milliseconds (UTC, whole seconds).
 * Strict and case-sensitive as the grammar says; the day name is checked for spelling, not
 * against the date, since recipients ignore it.
 */
public final class HttpDate {
    private static final List<String> DAYS = List.of("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun");
    private static final List<String> LONG_DAYS =
            List.of("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday");
    private static final List<String> MONTHS =
            List.of("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec");

    private HttpDate() {
    }

    /**
     * The date in epoch milliseconds, or {@link Times#NONE} when {@code s} is not an HTTP-date.
     * {@code referenceMillis} (when the value was received) resolves an RFC 850 two-digit year:
     * a year more than 50 years after the reference year falls in the century before. Without a
     * reference ({@link Times#NONE}) the Unix epoch stands in, so the result stays deterministic.
     */
    public static long parse(String value, long referenceMillis) {
        String s = stripOws(value);
        Scan in = new Scan(s);
        int comma = s.indexOf(',');
        if (comma == 3) {
            return imfFixdate(in);
        }
        if (comma > 3) {
            return rfc850(in, referenceMillis);
        }
        return asctime(in);
    }

    /** Removes the optional whitespace (SP and HTAB, RFC 9110 §5.6.3) that an HTTP parser strips around a field value. */
    public static String stripOws(String raw) {
        int from = 0;
        int to = raw.length();
        while (from < to && isOws(raw.charAt(from))) {
            from++;
        }
        while (to > from && isOws(raw.charAt(to - 1))) {
            to--;
        }
        return raw.substring(from, to);
    }

    private static boolean isOws(char c) {
        return c == ' ' || c == '\t';
    }

    private static long imfFixdate(Scan in) {
        in.oneOf(DAYS);
        in.literal(", ");
        int day = in.digits(2);
        in.literal(" ");
        int month = in.oneOf(MONTHS) + 1;
        in.literal(" ");
        int year = in.digits(4);
        in.literal(" ");
        long time = timeOfDay(in);
        in.literal(" GMT");
        return in.end() ? epochMillis(year, month, day, time) : Times.NONE;
    }

    private static long rfc850(Scan in, long referenceMillis) {
        in.oneOf(LONG_DAYS);
        in.literal(", ");
        int day = in.digits(2);
        in.literal("-");
        int month = in.oneOf(MONTHS) + 1;
        in.literal("-");
        int twoDigits = in.digits(2);
        in.literal(" ");
        long time = timeOfDay(in);
        in.literal(" GMT");
        if (!in.end()) {
            return Times.NONE;
        }
        return epochMillis(fullYear(twoDigits, referenceMillis), month, day, time);
    }

    private static long asctime(Scan in) {
        in.oneOf(DAYS);
        in.literal(" ");
        int month = in.oneOf(MONTHS) + 1;
        in.literal(" ");
        int day = in.peek(' ') ? in.skip().digits(1) : in.digits(2);
        in.literal(" ");
        long time = timeOfDay(in);
        in.literal(" ");
        int year = in.digits(4);
        return in.end() ? epochMillis(year, month, day, time) : Times.NONE;
    }

    /** The latest year ending in {@code twoDigits} that is at most 50 years after the reference year. */
    static int fullYear(int twoDigits, long referenceMillis) {
        long at = Times.present(referenceMillis) ? referenceMillis : 0L;
        int reference = Instant.ofEpochMilli(at).atZone(ZoneOffset.UTC).getYear();
        int latest = reference + 50;
        return latest - Math.floorMod(latest - twoDigits, 100);
    }

    /** Seconds since midnight of {@code HH:MM:SS}; second 60 (a leap second) is allowed, as in RFC 5322. */
    private static long timeOfDay(Scan in) {
        int hour = in.digits(2);
        in.literal(":");
        int minute = in.digits(2);
        in.literal(":");
        int second = in.digits(2);
        if (hour > 23 || minute > 59 || second > 60) {
            in.fail();
        }
        return hour * 3600L + minute * 60L + second;
    }

    private static long epochMillis(int year, int month, int day, long secondOfDay) {
        try {
            return (LocalDate.of(year, month, day).toEpochDay() * 86_400L + secondOfDay) * 1000L;
        } catch (DateTimeException e) {
            return Times.NONE;
        }
    }

    /** A cursor over the value that remembers the first mismatch instead of throwing. */
    private static final class Scan {
        private final String s;
        private int pos;
        private boolean failed;

        Scan(String s) {
            this.s = s;
        }

        void literal(String expected) {
            if (!failed && s.startsWith(expected, pos)) {
                pos += expected.length();
            } else {
                fail();
            }
        }

        boolean peek(char c) {
            return !failed && pos < s.length() && s.charAt(pos) == c;
        }

        Scan skip() {
            pos++;
            return this;
        }

        /** The index of the word of {@code words} found here; the longest match wins. */
        int oneOf(List<String> words) {
            int found = -1;
            for (int i = 0; i < words.size() && !failed; i++) {
                if (s.startsWith(words.get(i), pos) && (found < 0 || words.get(i).length() > words.get(found).length())) {
                    found = i;
                }
            }
            if (found < 0) {
                fail();
                return 0;
            }
            pos += words.get(found).length();
            return found;
        }

        int digits(int count) {
            int value = 0;
            for (int i = 0; i < count; i++) {
                char c = pos < s.length() && !failed ? s.charAt(pos) : 'x';
                if (c < '0' || c > '9') {
                    fail();
                    return 0;
                }
                value = value * 10 + (c - '0');
                pos++;
            }
            return value;
        }

        void fail() {
            failed = true;
        }

        boolean end() {
            return !failed && pos == s.length();
        }
    }
}

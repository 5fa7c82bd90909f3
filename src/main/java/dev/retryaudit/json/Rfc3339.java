package dev.retryaudit.json;

/**
 * Parses RFC 3339 date-times with a mandatory offset ({@code 2026-09-07T14:02:11.000Z},
 * {@code 2026-09-07T16:02:11+02:00}) into epoch milliseconds, by hand: this runs for every
 * attempt of a large trace. Fractions finer than a millisecond are truncated.
 */
public final class Rfc3339 {
    private Rfc3339() {
    }

    /** Why a timestamp was refused; the reader words it into a message. */
    public static final class BadTimestamp extends Exception {
        private static final long serialVersionUID = 1L;

        BadTimestamp(String why) {
            super(why, null, false, false);
        }
    }

    public static long parse(CharSequence s) throws BadTimestamp {
        int n = s.length();
        if (n < 20 || s.charAt(4) != '-' || s.charAt(7) != '-' || !isT(s.charAt(10))
                || s.charAt(13) != ':' || s.charAt(16) != ':') {
            throw new BadTimestamp("expected an RFC 3339 timestamp with an offset, like 2026-09-07T14:02:11.000Z");
        }
        int year = digits(s, 0, 4);
        int month = digits(s, 5, 2);
        int day = digits(s, 8, 2);
        int hour = digits(s, 11, 2);
        int minute = digits(s, 14, 2);
        int second = digits(s, 17, 2);
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23
                || minute > 59 || second > 60 || hour < 0 || minute < 0 || second < 0) {
            throw new BadTimestamp("not a valid date and time");
        }
        int i = 19;
        long millis = 0;
        if (i < n && s.charAt(i) == '.') {
            int start = ++i;
            while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                if (i - start < 3) {
                    millis = millis * 10 + (s.charAt(i) - '0');
                }
                i++;
            }
            if (i == start) {
                throw new BadTimestamp("a fraction of a second needs at least one digit");
            }
            for (int k = i - start; k < 3; k++) {
                millis *= 10;
            }
        }
        if (i >= n) {
            throw new BadTimestamp("a timestamp needs an offset (Z or +HH:MM); local times are ambiguous");
        }
        int offsetMinutes;
        char z = s.charAt(i);
        if ((z == 'Z' || z == 'z') && i + 1 == n) {
            offsetMinutes = 0;
        } else if ((z == '+' || z == '-') && i + 6 == n && s.charAt(i + 3) == ':') {
            int oh = digits(s, i + 1, 2);
            int om = digits(s, i + 4, 2);
            if (oh < 0 || om < 0 || oh > 23 || om > 59) {
                throw new BadTimestamp("not a valid offset");
            }
            offsetMinutes = (oh * 60 + om) * (z == '-' ? -1 : 1);
        } else {
            throw new BadTimestamp("a timestamp needs an offset (Z or +HH:MM) at its end");
        }
        long days = daysFromCivil(year, month, day);
        long secs = days * 86_400 + hour * 3600L + minute * 60L + second - offsetMinutes * 60L;
        return secs * 1000 + millis;
    }

    private static boolean isT(char c) {
        return c == 'T' || c == 't';
    }

    private static int digits(CharSequence s, int from, int count) {
        int v = 0;
        for (int i = from; i < from + count; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    private static int daysIn(int year, int month) {
        return switch (month) {
            case 2 -> (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
    static long daysFromCivil(int y, int m, int d) {
        y -= m <= 2 ? 1 : 0;
        long era = (y >= 0 ? y : y - 399) / 400;
        long yoe = y - era * 400;
        long doy = (153L * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146_097 + doe - 719_468;
    }
}

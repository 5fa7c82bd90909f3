package dev.retryaudit.cli;

import java.time.Duration;
import java.util.Locale;

/** Durations as options take them: {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h} or {@code 7d}. */
final class Durations {
    private Durations() {
    }

    /** The duration {@code text} writes, or null when it writes none. */
    static Duration parse(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        int digits = 0;
        while (digits < t.length() && Character.isDigit(t.charAt(digits))) {
            digits++;
        }
        if (digits == 0 || digits > 9) {
            return null;
        }
        long n = Long.parseLong(t.substring(0, digits));
        return switch (t.substring(digits)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            case "d" -> Duration.ofDays(n);
            default -> null;
        };
    }
}

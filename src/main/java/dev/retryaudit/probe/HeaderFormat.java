package dev.retryaudit.probe;

import dev.retryaudit.model.Wire;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/** How the probe writes Retry-After: delay-seconds, or an IMF-fixdate (RFC 9110 section 10.2.3). */
public enum HeaderFormat {
    SECONDS,
    HTTP_DATE;

    private static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

    /** The name used on the command line and in traces ({@code http-date}). */
    public String id() {
        return Wire.name(this, '-');
    }

    public static HeaderFormat parse(String id) {
        return Wire.parse(HeaderFormat.class, id, '-');
    }

    public static List<String> ids() {
        return Wire.names(HeaderFormat.class, '-');
    }

    /**
     * The Retry-After value for a response to a request received at {@code receivedMillis}: the
     * delay itself, or the receipt time truncated to whole seconds plus the delay as a date.
     */
    public String retryAfter(long receivedMillis, long delaySeconds) {
        return switch (this) {
            case SECONDS -> Long.toString(delaySeconds);
            case HTTP_DATE -> IMF_FIXDATE.format(Instant.ofEpochSecond(Math.floorDiv(receivedMillis, 1000L) + delaySeconds));
        };
    }
}

package dev.retryaudit.probe;

import dev.retryaudit.text.Wire;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * How the probe asks a client to wait: Retry-After as delay-seconds or as an IMF-fixdate (RFC 9110
 * section 10.2.3), {@code retry-after-ms} alone (the header many SDKs generated for LLM APIs read
 * first), or {@code retry-after-ms} beside a longer, different Retry-After, so that the wait shows
 * which one the client obeyed.
 */
public enum HeaderFormat {
    SECONDS,
    HTTP_DATE,
    RETRY_AFTER_MS,
    RETRY_AFTER_MS_AND_SECONDS;

    /** The name of the millisecond header. */
    public static final String MS_HEADER = "retry-after-ms";

    private static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

    /** The IMF-fixdate of {@code millis} (its whole second), as the Date header of an answer gives it. */
    static String httpDate(long millis) {
        return IMF_FIXDATE.format(Instant.ofEpochSecond(Math.floorDiv(millis, 1000L)));
    }

    /**
     * The headers of one failure: {@code retryAfter} and {@code retryAfterMs} as sent (null when not
     * sent), the wait the header a client should obey asks for ({@code askedMillis}, counted from the
     * request's arrival), and the different wait of the other header when both are sent (else null).
     */
    public record Ask(String retryAfter, String retryAfterMs, long askedMillis, Long otherMillis) {
    }

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
     * The headers for a failure answering a request received at {@code receivedMillis} with a delay
     * of {@code delaySeconds}. An HTTP-date is the arrival plus the delay rounded up to the next
     * whole second, so the wait it asks for is never shorter than the delay; beside
     * {@code retry-after-ms}, Retry-After asks for twice the delay plus one second.
     */
    public Ask ask(long receivedMillis, long delaySeconds) {
        long ms = delaySeconds * 1000;
        return switch (this) {
            case SECONDS -> new Ask(Long.toString(delaySeconds), null, ms, null);
            case HTTP_DATE -> {
                long date = Math.floorDiv(receivedMillis + ms + 999, 1000L);
                yield new Ask(IMF_FIXDATE.format(Instant.ofEpochSecond(date)), null, date * 1000 - receivedMillis, null);
            }
            case RETRY_AFTER_MS -> new Ask(null, Long.toString(ms), ms, null);
            case RETRY_AFTER_MS_AND_SECONDS -> new Ask(Long.toString(2 * delaySeconds + 1), Long.toString(ms), ms,
                    (2 * delaySeconds + 1) * 1000);
        };
    }
}

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
 * which one the client obeyed. Four more ask for no wait: an IMF-fixdate already past (retrying at
 * once is right), no header at all, and two values RFC 9110 does not allow, a negative number
 * ({@code -D}) and a fraction ({@code D.5}); after the last three a client must fall back to its own
 * backoff, not retry at once.
 */
public enum HeaderFormat {
    SECONDS,
    HTTP_DATE,
    RETRY_AFTER_MS,
    RETRY_AFTER_MS_AND_SECONDS,
    HTTP_DATE_PAST,
    NONE,
    NEGATIVE,
    FRACTIONAL;

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
     * Whether the header asks for a wait the client must honour; when it does not (no header, or an
     * invalid value), the client is judged on falling back to a backoff of its own.
     */
    public boolean asksWait() {
        return this != NONE && this != NEGATIVE && this != FRACTIONAL;
    }

    /**
     * The headers for a failure answering a request received at {@code receivedMillis} with a delay
     * of {@code delaySeconds}. An HTTP-date is the arrival plus the delay rounded up to the next
     * whole second, so the wait it asks for is never shorter than the delay; beside
     * {@code retry-after-ms}, Retry-After asks for twice the delay plus one second. A past HTTP-date is
     * the arrival less the delay (at least a second), rounded down, and asks for no wait; the invalid
     * values ask for none either. Null for {@link #NONE}, which sends no header.
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
            case HTTP_DATE_PAST -> new Ask(IMF_FIXDATE.format(Instant.ofEpochSecond(
                    Math.floorDiv(receivedMillis - Math.max(ms, 1000), 1000L))), null, 0, null);
            case NONE -> null;
            case NEGATIVE -> new Ask("-" + delaySeconds, null, 0, null);
            case FRACTIONAL -> new Ask(delaySeconds + ".5", null, 0, null);
        };
    }
}

package dev.retryaudit.probe;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What the probe server answers to requests of {@code method}: the first {@code failures} get
 * {@code status} with a Retry-After taken in turn from {@code delays} (seconds, repeated when there
 * are more failures than delays) in {@code headerFormat} (422 gets none), or, with {@code stallSeconds} above zero,
 * are committed and then held that long before their 200; later ones get 200 up to
 * {@code maxRequests}, then 410. A write whose {@code keyHeader} value was already committed is
 * answered with the first result and not committed again when {@code dedupe} is on.
 */
public record Scenario(String method, int status, int failures, List<Long> delays, HeaderFormat headerFormat,
        int maxRequests, long stallSeconds, boolean dedupe, String keyHeader) {

    /** The failure statuses: 429 and 503 ask the client to wait, 422 rejects the request as it is. */
    public static final List<Integer> STATUSES = List.of(429, 503, 422);

    /**
     * Every status a scenario may fail with: those of {@link #STATUSES}, and the server errors a suite serves
     * (500, 502, 504 and the 529 "overloaded" of some APIs), usually without a Retry-After.
     */
    public static final List<Integer> SERVED_STATUSES = List.of(429, 503, 422, 500, 502, 504, 529);

    /** The fewest and most failing requests a scenario of the {@code probe} command or MCP tools has. */
    public static final int MIN_FAILURES = 1;
    public static final int MAX_FAILURES = 10;

    /** The most Retry-After delays in a schedule, and the longest of them, in seconds. */
    public static final int MAX_DELAYS = 10;
    public static final int MAX_DELAY_SECONDS = 600;

    /** The longest stall, in seconds. */
    public static final int MAX_STALL_SECONDS = 600;

    /** The most requests of the method answered before the probe answers 410. */
    public static final int MAX_REQUESTS = 10_000;

    /** An HTTP token (RFC 9110 §5.6.2) of at most 64 characters: what a method or a header name may be. */
    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}");

    /** The methods RFC 9110 defines as safe: the probe commits nothing for them. */
    private static final List<String> READS = List.of("GET", "HEAD", "OPTIONS", "TRACE");

    public Scenario {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(headerFormat, "headerFormat");
        Objects.requireNonNull(keyHeader, "keyHeader");
        delays = List.copyOf(delays);
        if (!SERVED_STATUSES.contains(status)) {
            throw new IllegalArgumentException("status must be one of " + SERVED_STATUSES);
        }
        if (failures < 1 || delays.isEmpty() || delays.stream().anyMatch(d -> d < 0) || maxRequests <= failures
                || stallSeconds < 0) {
            throw new IllegalArgumentException("bad scenario " + failures + "/" + delays + "/" + maxRequests);
        }
    }

    /** A Retry-After scenario for GETs with one fixed delay, deduplicating by {@code Idempotency-Key}. */
    public static Scenario of(int status, int failures, long delay, HeaderFormat format, int maxRequests) {
        return new Scenario("GET", status, failures, List.of(delay), format, maxRequests, 0, true, "Idempotency-Key");
    }

    /** Whether {@code s} may be a method or a header name: an HTTP token of at most 64 characters. */
    public static boolean isToken(String s) {
        return TOKEN.matcher(s).matches();
    }

    /** Whether the failures reject the request as invalid (422, no Retry-After): re-sending it unchanged fails again. */
    public boolean rejects() {
        return status == 422;
    }

    /** Whether the failing requests are held past the client's timeout instead of answered with a Retry-After. */
    public boolean stalls() {
        return stallSeconds > 0;
    }

    /** Whether requests of the scenario's method change state, so the server commits them. */
    public boolean writes() {
        return !READS.contains(method.toUpperCase(Locale.ROOT));
    }

    /** The Retry-After delay, in seconds, of the {@code n}th failure (1-based). */
    public long delayOf(int n) {
        return delays.get((n - 1) % delays.size());
    }

    /** The delays as written on the command line: {@code 3,1,4}. */
    public String schedule() {
        return String.join(",", delays.stream().map(String::valueOf).toList());
    }

    /** The status of the response to the {@code n}th request of the method (1-based). */
    public int statusOf(int n) {
        if (n <= failures) {
            return stalls() ? 200 : status;
        }
        return n <= maxRequests ? 200 : 410;
    }
}

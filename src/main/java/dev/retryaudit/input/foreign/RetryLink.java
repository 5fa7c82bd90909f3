package dev.retryaudit.input.foreign;

import dev.retryaudit.json.Decimal;
import dev.retryaudit.model.Outcome;
import dev.retryaudit.text.Times;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;

/**
 * The rule by which a request with no resend counter is read as a retry of an earlier one of the
 * same context (siblings under one parent span, root spans of one client, entries of one HAR page).
 * The later request must match the earlier on method and normalised URL ({@link Http#normalisedUrl})
 * and on identity where both record it (the Idempotency-Key, else the body hash). The earlier must
 * have failed or got no response (408, 425, 429, 5xx, a connection error, a timeout, a cancellation,
 * an error with no status), or have been redirected or challenged (3xx, 401, 407: folded into one
 * attempt). The later must start after the earlier ended (requests in flight together are
 * concurrent; with no end recorded, those started at most {@value #CONCURRENT_MS} ms apart are taken
 * to be) and at most {@value #WINDOW_MS} ms after it ended, plus the wait the earlier response's
 * Retry-After asks for, in seconds or as a date ({@link #retryAfterMillis}). After any other client
 * error (400, 404, 422, ...) the later request is a retry only when both record the same
 * Idempotency-Key or the same body (a request sent again unchanged after it was refused); after a
 * success it is a new operation. A gRPC call is read the same way by its status: after a transient
 * or unknown-outcome status it may be a retry, after a rejection only when proven the same.
 */
public final class RetryLink {
    /** How long after a failure a matching request still counts as its retry. */
    static final long WINDOW_MS = 10_000;
    /** Requests with no recorded end started at most this far apart are concurrent, never a retry of each other. */
    static final long CONCURRENT_MS = 5;

    private RetryLink() {
    }

    /** What joined {@code next} to the operation that {@code earlier} ends, in words, or null when it is no retry of it. */
    static String reason(ForeignSpan earlier, ForeignSpan next, String context) {
        Hop a = earlier.hop;
        Hop b = next.hop;
        if (earlier.url == null || !sameIdentity(a, b)) {
            return null;
        }
        boolean folded = a.status != null && (Http.isRedirect(a.status) || Http.isChallenge(a.status));
        boolean repeated = !folded && (a.status != null && a.status >= 400 && a.status < 500
                || a.grpcStatus != null && a.grpcStatus.isRejected()) && provenSame(a, b);
        if (!folded && !repeated && !failed(a)) {
            return null;
        }
        if (!Times.present(a.startedAt) || !Times.present(b.startedAt)) {
            return null;
        }
        long end = end(a);
        if (Times.present(end) ? b.startedAt < end : b.startedAt - a.startedAt <= CONCURRENT_MS) {
            return null;
        }
        long from = Times.present(end) ? end : a.startedAt;
        if (b.startedAt - from > WINDOW_MS + retryAfterMillis(a)) {
            return null;
        }
        return "inferred: same " + context + (earlier.grpc != null ? " and gRPC method" : ", method and URL") + " after "
                + (folded ? "a redirect or challenge" : repeated ? "a client error, with the same key or body,"
                        : "a failure") + " within " + WINDOW_MS / 1000 + " s";
    }

    /**
     * Whether a later request may still be read as a retry of the one {@code h} records: it failed, or
     * was redirected or challenged, or was refused with a client error and records its key or body.
     */
    static boolean awaitsRetry(Hop h) {
        if (h.status != null && (Http.isRedirect(h.status) || Http.isChallenge(h.status))) {
            return true;
        }
        return failed(h) || h.status != null && h.status >= 400 && h.status < 500
                && (h.idempotencyKey != null || h.requestHash != null);
    }

    /** Whether {@code next} starts too long after {@code earlier} to be its retry, whatever else it records. */
    static boolean expired(Hop earlier, Hop next) {
        long end = end(earlier);
        long from = Times.present(end) ? end : earlier.startedAt;
        return Times.present(from) && Times.present(next.startedAt)
                && next.startedAt - from > WINDOW_MS + retryAfterMillis(earlier);
    }

    /** Whether a response (or its absence) is one a client retries. */
    static boolean failed(Hop h) {
        if (h.grpcStatus != null) {
            return h.grpcStatus.isTransient() || h.grpcStatus.leavesOutcomeUnknown();
        }
        if (h.status != null) {
            int s = h.status;
            return s == 408 || s == 425 || s == 429 || s >= 500;
        }
        return h.outcome == Outcome.TIMEOUT || h.outcome == Outcome.CONNECTION_ERROR
                || h.outcome == Outcome.CANCELLED || h.outcome == Outcome.ERROR;
    }

    /** Whether both requests record the same Idempotency-Key or the same body. */
    private static boolean provenSame(Hop a, Hop b) {
        return a.idempotencyKey != null && a.idempotencyKey.equals(b.idempotencyKey)
                || a.requestHash != null && a.requestHash.equals(b.requestHash);
    }

    /**
     * Whether the requests may be one: with an Idempotency-Key on both, the keys decide (the client
     * names one operation with one key, whatever the body); else with a body hash on both, the bodies.
     */
    private static boolean sameIdentity(Hop a, Hop b) {
        if (a.idempotencyKey != null && b.idempotencyKey != null) {
            return a.idempotencyKey.equals(b.idempotencyKey);
        }
        return a.requestHash == null || b.requestHash == null || a.requestHash.equals(b.requestHash);
    }

    /** When a request ended: its end time, else its start plus its duration, else none. */
    static long end(Hop h) {
        if (Times.present(h.endedAt)) {
            return h.endedAt;
        }
        return Times.present(h.startedAt) && !Double.isNaN(h.durationMs) ? h.startedAt + (long) Math.ceil(h.durationMs)
                : Times.NONE;
    }

    /**
     * How long a response's Retry-After asks the client to wait, in milliseconds capped at a day: its
     * delay-seconds, or for an HTTP-date (IMF-fixdate, as servers send it) the date less the response's
     * Date header, else less the response's end on the client's clock; 0 for anything else or a date
     * in the past.
     */
    static long retryAfterMillis(Hop h) {
        if (h.retryAfter == null) {
            return 0;
        }
        String v = h.retryAfter.strip();
        if (!v.isEmpty() && v.length() <= 6 && Decimal.isDigits(v, 0)) {
            return Math.min(86_400L, Long.parseLong(v)) * 1000;
        }
        long date = imfFixdate(v);
        long from = h.responseDate != null ? imfFixdate(h.responseDate.strip()) : end(h);
        if (!Times.present(date) || !Times.present(from)) {
            return 0;
        }
        return Math.max(0, Math.min(86_400_000L, date - from));
    }

    /** An IMF-fixdate ({@code Mon, 30 Nov 2026 21:46:06 GMT}) in epoch milliseconds, or none. */
    private static long imfFixdate(String v) {
        try {
            return DateTimeFormatter.RFC_1123_DATE_TIME.parse(v, Instant::from).toEpochMilli();
        } catch (DateTimeException e) {
            return Times.NONE;
        }
    }
}

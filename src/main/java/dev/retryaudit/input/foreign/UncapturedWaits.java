package dev.retryaudit.input.foreign;

import dev.retryaudit.input.reader.ReadContext;
import java.util.List;

/**
 * HTTP client spans of a 429 or 503 response that was sent again, which record no response header at
 * all: the export did not capture {@code Retry-After}, so the audit cannot tell a header the server did
 * not send from one nobody recorded, and whether the resend waited as asked goes unchecked. OpenTelemetry's
 * HTTP instrumentations capture no header unless told to; the count is noted once a source, with what
 * to capture. A span that records any response header (a HAR entry records them all) is read as having
 * recorded the response's Retry-After too, if there was one.
 */
final class UncapturedWaits {
    private UncapturedWaits() {
    }

    /**
     * Notes how many spans of {@code groups}' spans (each group's spans ordered by start) are such a
     * response followed by another span of its group, at the first of them; nothing when none is. With
     * {@code parts}, counts them there instead, for a source linked in parts.
     */
    static void note(ReadContext ctx, List<List<ForeignSpan>> groups, NoteParts parts) {
        SpanCount count = new SpanCount(NoteParts.UNCAPTURED, 1);
        for (List<ForeignSpan> spans : groups) {
            for (int i = 0; i < spans.size() - 1; i++) {
                if (uncaptured(spans.get(i))) {
                    count.add(spans.get(i));
                }
            }
        }
        count.note(ctx, parts, SpanCount::request);
    }

    /** Whether {@code s} is an HTTP client span of a 429 or 503 response that records no response header. */
    private static boolean uncaptured(ForeignSpan s) {
        Integer status = s.hop.status;
        return s.kind == ForeignSpan.Kind.HTTP && !s.server && !s.responseHeaders && status != null
                && (status == 429 || status == 503);
    }

    /** The note on {@code count} such spans, the first of them {@code spanId}, a request of {@code method} to {@code url}. */
    static String text(long count, String spanId, String method, String url) {
        return count + (count == 1 ? " HTTP span answered 429 or 503 and sent again records"
                : " HTTP spans answered 429 or 503 and sent again record")
                + " no response header, the first span " + spanId + " (" + method + " " + url + "): the export did "
                + "not capture Retry-After, so whether the resend waited as the server asked is not checked; "
                + "capture the response headers retry-after, retry-after-ms and date (docs/serve.md says how for each SDK)";
    }
}

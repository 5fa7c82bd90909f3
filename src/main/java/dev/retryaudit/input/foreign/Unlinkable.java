package dev.retryaudit.input.foreign;

import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.text.Times;
import java.util.Collection;
import java.util.List;

/**
 * HTTP spans whose shape the linker cannot link by what they say: a request with no URL
 * ({@code url.full}, {@code http.url}, Zipkin's {@code http.path}) cannot be told from another
 * request, one with no start time cannot be placed before or after another. Without a resend count,
 * such a span is an operation of its own; where it shares its context with other requests, that may
 * hide a retry, so the spans are counted in one note a source.
 */
final class Unlinkable {
    private Unlinkable() {
    }

    /**
     * Notes the spans of the requests (by context) that are read alone for want of a URL or a start time;
     * with {@code parts}, counts them there instead, for a source linked in parts.
     */
    static void note(ReadContext ctx, Collection<List<ForeignSpan>> requests, NoteParts parts) {
        SpanCount count = new SpanCount(NoteParts.UNLINKABLE, 2);
        for (List<ForeignSpan> spans : requests) {
            if (spans.size() < 2) {
                continue;
            }
            for (ForeignSpan s : spans) {
                if (s.hop.resendCount != null || s.hop.attemptId != null) {
                    continue;
                }
                if (s.url == null) {
                    count.add(s, 0);
                } else if (!Times.present(s.hop.startedAt)) {
                    count.add(s, 1);
                }
            }
        }
        count.note(ctx, parts, s -> new String[] {s.spanId});
    }

    /** The note on the spans read alone: {@code noUrl} with no URL, {@code noStart} with a URL and no start time. */
    static String text(long noUrl, long noStart, String spanId) {
        String what = noUrl > 0 && noStart > 0
                ? "(" + noUrl + " with no URL, " + noStart + " with no start time)"
                : noUrl > 0 ? "with no URL (url.full, http.url)" : "with no start time";
        long count = noUrl + noStart;
        return count + (count == 1 ? " HTTP span " : " HTTP spans ") + what
                + " among other requests of their context, the first span " + spanId + ": without a resend "
                + "count such a request cannot be told from another or placed after it, so each is read as an "
                + "operation of its own and a retry among them is not seen";
    }
}

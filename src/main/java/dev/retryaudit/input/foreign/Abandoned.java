package dev.retryaudit.input.foreign;

import dev.retryaudit.input.reader.ReadContext;
import java.util.Collection;
import java.util.List;

/**
 * HTTP client spans that ended with nothing recorded of how: no status code, no {@code error.type},
 * span status unset and no exception event. instrumentation-undici 0.33 writes so the request that a
 * client aborts, as the {@code openai} and {@code @anthropic-ai/sdk} SDKs abort a request on their own
 * timer; no response came before the client stopped waiting. Such a span is read as a timeout, since
 * whether its write landed is as unknown as after one, and the reading is noted once a source. Only
 * spans of a producer that records every status are read so ({@link SpanScratch#recordsEveryStatus}):
 * Brave leaves the status of a 2xx untagged.
 */
final class Abandoned {
    private Abandoned() {
    }

    /** Whether a span with these facts is one: an ended HTTP client span with no status, error or exception. */
    static boolean is(ForeignSpan span, boolean ended, Integer status, String errorType, int statusCode,
            Object exception) {
        return span.kind == ForeignSpan.Kind.HTTP && !span.server && ended && status == null && errorType == null
                && statusCode == 0 && exception == null;
    }

    /**
     * Notes how many of the requests were read so, at the first of them; nothing when none was. With
     * {@code parts}, counts them there instead, for a source linked in parts.
     */
    static void note(ReadContext ctx, Collection<List<ForeignSpan>> requests, NoteParts parts) {
        SpanCount count = new SpanCount(NoteParts.ABANDONED, 1);
        for (List<ForeignSpan> spans : requests) {
            for (ForeignSpan s : spans) {
                if (s.abandoned) {
                    count.add(s);
                }
            }
        }
        count.note(ctx, parts, SpanCount::request);
    }

    /** The note on {@code count} spans read so, the first of them {@code spanId}, a request of {@code method} to {@code url}. */
    static String text(long count, String spanId, String method, String url) {
        return count + (count == 1 ? " HTTP span" : " HTTP spans") + " ended with no "
                + "status code, no error.type, span status unset and no exception event, the first span "
                + spanId + " (" + method + " " + url + "): read as "
                + (count == 1 ? "a timeout" : "timeouts") + ", since the client stopped waiting before a response "
                + "came (as an SDK that aborts a request on its own timer leaves it), so whether a write "
                + "sent so landed is unknown";
    }
}

package dev.retryaudit.input.foreign;

import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.text.Times;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Splits the HTTP requests of one linking context into chains, one an operation, in the order they
 * started. A resend (a counter above 0) continues an operation of the same request whose last send
 * counted fewer resends (a root span's only within the window): the oldest one still waiting for a
 * retry (its last send failed, was redirected or challenged), on the resend's own thread before any
 * other, else the latest; or else the one whose last hop, one send earlier, was redirected. A request
 * without a counter continues the oldest operation of the same request, on its own thread before any
 * other, that {@link RetryLink} reads it as a retry of. Anything else starts an operation. So two
 * requests in flight together that both failed are each continued by a retry of their own, and a
 * client that retries on another thread (Reactor on {@code parallel-N}) is still linked. Under a
 * parent span a resend with no earlier send starts an operation whose first attempt number shows the
 * missing sends; a root span's is noted and numbered from 1, since its earlier sends may be in traces
 * the export left out.
 */
final class RequestChains {
    /** A chain of HTTP requests being linked, and the reasons its requests were joined, in order. */
    static final class Chain {
        final List<ForeignSpan> spans = new ArrayList<>(2);
        /** Made when a second span joins: most chains hold one span. */
        Set<String> reasons;
        boolean unlinkedResend;

        ForeignSpan last() {
            return spans.get(spans.size() - 1);
        }

        void join(ForeignSpan s, String reason) {
            reasons = reasons != null ? reasons : new LinkedHashSet<>();
            reasons.add(reason);
            spans.add(s);
        }
    }

    /** The chains of one request (method and URL): the one continued last, and those a retry may still continue, oldest first. */
    private static final class Request {
        Chain latest;
        /** Made when a chain of the request first waits: most requests never fail. */
        List<Chain> waiting = List.of();

        /** Keeps {@code chain} among those waiting for a retry, or forgets it. */
        void track(Chain chain, boolean waits) {
            if (waits && !waiting.contains(chain)) {
                waiting = waiting.isEmpty() ? new ArrayList<>(2) : waiting;
                waiting.add(chain);
            } else if (!waits && !waiting.isEmpty()) {
                waiting.remove(chain);
            }
        }

        /** Forgets the chains that {@code next} starts too late to continue. */
        void expire(ForeignSpan next) {
            for (int i = waiting.size() - 1; i >= 0; i--) {
                if (RetryLink.expired(waiting.get(i).last().hop, next.hop)) {
                    waiting.remove(i);
                }
            }
        }
    }

    private RequestChains() {
    }

    /** The chains of one context's requests; {@code bucket} is sorted by start on the way. */
    static List<Chain> split(List<ForeignSpan> bucket, ReadContext ctx) {
        bucket.sort(RetryLinker.BY_START);
        List<Chain> chains = new ArrayList<>();
        // A request alone in its context (most are) starts its operation: nothing to look up.
        boolean alone = bucket.size() == 1;
        Map<String, Request> byRequest = alone ? Collections.emptyMap() : new HashMap<>();
        Map<Integer, Chain> redirectedAt = alone ? Collections.emptyMap() : new HashMap<>();
        for (ForeignSpan s : bucket) {
            boolean root = s.parentSpanId.isEmpty() && !s.traceId.isEmpty();
            int resends = s.resends();
            String key = alone ? null : s.method + " " + Http.normalisedUrl(s.url);
            Request request = alone ? null : byRequest.get(key);
            if (request != null) {
                request.expire(s);
            }
            Chain chain = null;
            String reason = null;
            if (resends > 0) {
                chain = resent(request, s, root);
                chain = chain != null ? chain : redirectedAt.get(resends - 1);
                reason = counter(s);
            } else if ((s.hop.resendCount == null || restarted(s)) && request != null) {
                for (int pass = 0; chain == null && pass < 2; pass++) {
                    for (Chain c : request.waiting) {
                        if (pass == 1 || sameThread(c.last(), s)) {
                            reason = RetryLink.reason(c.last(), s, context(c.last(), s));
                            if (reason != null) {
                                chain = c;
                                break;
                            }
                        }
                    }
                }
            }
            if (chain == null) {
                chain = new Chain();
                chains.add(chain);
                chain.spans.add(s);
                if (resends > 0 && root) {
                    chain.unlinkedResend = true;
                    ctx.note(s.line, s.column, "span " + s.spanId + " (" + s.method + " " + s.url + ") has "
                            + counter(s) + " " + resends + ", but no earlier send of it by the same client "
                            + "within " + RetryLink.WINDOW_MS / 1000 + " s is in the export: read as the first "
                            + "attempt of its own operation");
                }
            } else {
                redirectedAt.remove(chain.last().resends(), chain);
                chain.join(s, reason);
            }
            if (alone) {
                continue;
            }
            if (request == null) {
                request = new Request();
                byRequest.put(key, request);
            }
            request.latest = chain;
            request.track(chain, RetryLink.awaitsRetry(s.hop));
            if (s.hop.status != null && Http.isRedirect(s.hop.status)) {
                redirectedAt.put(resends, chain);
            }
        }
        return chains;
    }

    /** The operation a resend continues by its counter, or null (see the class comment). */
    private static Chain resent(Request request, ForeignSpan s, boolean root) {
        if (request == null) {
            return null;
        }
        for (int pass = 0; pass < 2; pass++) {
            for (Chain c : request.waiting) {
                if ((pass == 1 || sameThread(c.last(), s)) && continues(c.last(), s, root)) {
                    return c;
                }
            }
        }
        return continues(request.latest.last(), s, root) ? request.latest : null;
    }

    private static boolean continues(ForeignSpan earlier, ForeignSpan s, boolean root) {
        return earlier.resends() < s.resends() && (!root || withinWindow(earlier, s));
    }

    private static boolean sameThread(ForeignSpan a, ForeignSpan b) {
        return a.thread != null && a.thread.equals(b.thread);
    }

    /** What a request is linked within, in words, with the thread where both sends name the same one. */
    private static String context(ForeignSpan earlier, ForeignSpan s) {
        String context = LinkingContexts.context(s);
        return context.equals("client") && sameThread(earlier, s) ? "client and thread" : context;
    }

    /**
     * Whether a send's counter says first send only as a client's count that starts again when a layer
     * above it retries: LangChain's retry calls the OpenAI SDK anew, which sends
     * {@code x-stainless-retry-count: 0} again. Such a send may still be read as a retry.
     */
    private static boolean restarted(ForeignSpan s) {
        return s.resends() == 0 && Headers.RETRY_COUNT.equals(s.resendSource);
    }

    /** The name of what counted a span's resends, for evidence and notes. */
    static String counter(ForeignSpan s) {
        return s.resendSource != null ? s.resendSource : "resend count";
    }

    /** Whether {@code next} started after {@code earlier} ended (or started) and within the link window. */
    private static boolean withinWindow(ForeignSpan earlier, ForeignSpan next) {
        long end = RetryLink.end(earlier.hop);
        long from = Times.present(end) ? end : earlier.hop.startedAt;
        return Times.present(from) && Times.present(next.hop.startedAt)
                && next.hop.startedAt - from <= RetryLink.WINDOW_MS + RetryLink.retryAfterMillis(earlier.hop)
                && next.hop.startedAt - earlier.hop.startedAt >= 0;
    }
}

package dev.retryaudit.input.store;

import dev.retryaudit.text.Escaping;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The GET requests of one fetch from a trace store: each with a connect and an answer timeout, at most
 * {@code maxRequests} of them, each answer read up to {@code maxBytes} (the audit's byte limit) and no
 * further. Redirects are not followed.
 */
final class StoreClient {
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(60);
    private static final int EXCERPT = 200;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER).build();
    private final String store;
    private final long maxBytes;
    private final int maxRequests;
    private int requests;

    StoreClient(String store, long maxBytes, int maxRequests) {
        this.store = store;
        this.maxBytes = maxBytes;
        this.maxRequests = maxRequests;
    }

    /** An answer: its status and body. */
    record Answer(URI uri, int status, byte[] body) {
        boolean ok() {
            return status / 100 == 2;
        }
    }

    /** GETs {@code uri}; a store that cannot be reached, or an answer over the byte limit, is a {@link StoreException}. */
    Answer get(URI uri) throws StoreException {
        if (++requests > maxRequests) {
            throw new StoreException(store, false, "more than " + maxRequests + " requests to the trace store were needed");
        }
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(ANSWER_TIMEOUT).header("Accept", "application/json")
                .GET().build();
        try {
            HttpResponse<InputStream> r = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream in = r.body()) {
                byte[] body = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
                if (body.length > maxBytes) {
                    throw new StoreException(store, false, "the answer to " + uri + " exceeds the byte limit of "
                            + maxBytes + " bytes; raise it with --limit-bytes");
                }
                return new Answer(uri, r.statusCode(), body);
            }
        } catch (HttpConnectTimeoutException e) {
            throw unreachable(uri, "no connection within " + CONNECT_TIMEOUT.toSeconds() + " s");
        } catch (HttpTimeoutException e) {
            throw unreachable(uri, "no answer within " + ANSWER_TIMEOUT.toSeconds() + " s");
        } catch (ConnectException e) {
            throw unreachable(uri, "connection refused");
        } catch (IOException e) {
            throw unreachable(uri, e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unreachable(uri, "interrupted");
        }
    }

    private StoreException unreachable(URI uri, String why) {
        return new StoreException(store, true, "cannot reach the trace store at " + uri + ": " + Escaping.controls(why));
    }

    /** The error for an answer that is not what the API documents: its status and the start of its body. */
    StoreException bad(Answer a, String expected) {
        String text = new String(a.body(), 0, Math.min(a.body().length, EXCERPT), StandardCharsets.UTF_8).strip();
        return new StoreException(store, false, "the trace store answered " + a.uri() + " with HTTP " + a.status()
                + (text.isEmpty() ? "" : " and " + Escaping.controls(text) + (a.body().length > EXCERPT ? "..." : ""))
                + ", not " + expected);
    }
}

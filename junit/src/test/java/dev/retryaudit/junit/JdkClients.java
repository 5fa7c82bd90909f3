package dev.retryaudit.junit;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The JDK's {@link HttpClient}, which does not retry on its own, in two hand-written retry loops of up to five
 * tries: one waits what Retry-After asks ({@link RetryAfter}), the other a fixed 200 ms, whatever is asked.
 */
final class JdkClients {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final int TRIES = 5;
    private static final Duration FIXED = Duration.ofMillis(200);

    private JdkClients() {
    }

    /** GETs {@code url}, retrying as Retry-After asks; returns the final status. */
    static int honouringRetryAfter(String url) throws Exception {
        return get(url, true);
    }

    /** GETs {@code url}, retrying after a fixed 200 ms; returns the final status. */
    static int fixedWait(String url) throws Exception {
        return get(url, false);
    }

    /** One GET of {@code url}, its status and headers. */
    static HttpResponse<Void> send(String url) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.discarding());
    }

    private static int get(String url, boolean readRetryAfter) throws Exception {
        HttpResponse<Void> response = send(url);
        for (int retry = 1; retry < TRIES && RetryAfter.retryable(response.statusCode()); retry++) {
            String header = response.headers().firstValue("Retry-After").orElse(null);
            RetryAfter.sleep(readRetryAfter ? RetryAfter.before(retry, header) : FIXED);
            response = send(url);
        }
        return response.statusCode();
    }
}

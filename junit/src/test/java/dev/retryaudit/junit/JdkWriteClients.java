package dev.retryaudit.junit;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

/**
 * The JDK's {@link HttpClient} sending a POST with a 1 s timeout, in two hand-written retry loops of up to three
 * tries: one sends an {@code Idempotency-Key} and re-sends after a timeout or a status that may pass (429, 5xx)
 * but not after a 422; the other sends no key and re-sends after a timeout or any failing status, 422 included,
 * as a generic "retry on error" wrapper does.
 */
final class JdkWriteClients {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final int TRIES = 3;
    private static final Duration TIMEOUT = Duration.ofSeconds(1);
    private static final String ORDER = "{\"order\": 42}";

    private JdkWriteClients() {
    }

    /** POSTs an order under a key, re-sending what may pass; returns the final status. */
    static int keyedRetryingWhatMayPass(String url) throws Exception {
        return post(url, "order-42", false);
    }

    /** POSTs an order without a key, re-sending on every failure; returns the final status. */
    static int keylessRetryingEverything(String url) throws Exception {
        return post(url, null, true);
    }

    private static int post(String url, String key, boolean everyFailure) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(TIMEOUT)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(ORDER));
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        for (int attempt = 1; ; attempt++) {
            try {
                int status = CLIENT.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
                boolean again = everyFailure ? status >= 400 : RetryAfter.retryable(status);
                if (!again || attempt == TRIES) {
                    return status;
                }
            } catch (HttpTimeoutException e) {
                if (attempt == TRIES) {
                    throw e;
                }
            }
            Thread.sleep(RetryAfter.backoff(attempt).toMillis());
        }
    }
}

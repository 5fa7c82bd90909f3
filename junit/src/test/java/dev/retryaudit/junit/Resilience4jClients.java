package dev.retryaudit.junit;

import io.github.resilience4j.core.IntervalBiFunction;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * resilience4j's {@link Retry} around the JDK HttpClient's GET, retrying a response of a retryable status up to
 * five tries: with an {@link IntervalBiFunction} that reads the response's Retry-After ({@link RetryAfter}), and
 * with a fixed {@code waitDuration} of 500 ms, the configuration most examples show.
 */
final class Resilience4jClients {
    private static final int TRIES = 5;

    private Resilience4jClients() {
    }

    /** GETs {@code url}, waiting what Retry-After asks between tries; returns the final status. */
    static int honouringRetryAfter(String url) throws Exception {
        IntervalBiFunction<HttpResponse<Void>> readingRetryAfter = (attempt, outcome) -> (outcome.isRight()
                ? RetryAfter.bounded(RetryAfter.before(attempt, outcome.get().headers().firstValue("Retry-After").orElse(null)))
                : RetryAfter.backoff(attempt)).toMillis();
        return get(url, RetryConfig.<HttpResponse<Void>>custom().intervalBiFunction(readingRetryAfter));
    }

    /** GETs {@code url}, waiting a fixed 500 ms between tries; returns the final status. */
    static int fixedWait(String url) throws Exception {
        return get(url, RetryConfig.<HttpResponse<Void>>custom().waitDuration(Duration.ofMillis(500)));
    }

    private static int get(String url, RetryConfig.Builder<HttpResponse<Void>> config) throws Exception {
        Retry retry = Retry.of("probe", config.maxAttempts(TRIES).retryOnResult(r -> RetryAfter.retryable(r.statusCode()))
                .build());
        return retry.executeCallable(() -> JdkClients.send(url)).statusCode();
    }
}

package dev.retryaudit.junit;

import java.time.Duration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientResponseException;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

/**
 * Spring's {@link WebClient} (on Reactor Netty) retried two ways: by {@code retryWhen(Retry.backoff(...))},
 * Reactor's jittered exponential backoff from 200 ms, which never reads Retry-After, as most reactive code
 * retries; and by a {@code retryWhen} whose signals read the header of the failed response ({@link RetryAfter}).
 */
final class WebClients {
    private static final int RETRIES = 4;
    private static final Duration LONGEST_CALL = Duration.ofSeconds(60);

    private WebClients() {
    }

    /** GETs {@code url}, retried by {@code Retry.backoff(4, 200 ms)}; returns the final status. */
    static int backoff(String url) {
        return get(url).retryWhen(Retry.backoff(RETRIES, Duration.ofMillis(200)).filter(WebClients::retryable))
                .block(LONGEST_CALL).getStatusCode().value();
    }

    /** GETs {@code url}, retried after what Retry-After asks; returns the final status. */
    static int honouringRetryAfter(String url) {
        Retry readingRetryAfter = Retry.from(signals -> signals.concatMap(signal -> {
            if (!retryable(signal.failure()) || signal.totalRetries() >= RETRIES) {
                return Mono.error(signal.failure());
            }
            String header = ((WebClientResponseException) signal.failure()).getHeaders().getFirst(HttpHeaders.RETRY_AFTER);
            return Mono.fromCallable(() -> RetryAfter.bounded(RetryAfter.before((int) signal.totalRetries() + 1, header)))
                    .flatMap(Mono::delay);
        }));
        return get(url).retryWhen(readingRetryAfter).block(LONGEST_CALL).getStatusCode().value();
    }

    private static Mono<ResponseEntity<Void>> get(String url) {
        return WebClient.create().get().uri(url).retrieve().toBodilessEntity();
    }

    private static boolean retryable(Throwable t) {
        return t instanceof WebClientResponseException e && RetryAfter.retryable(e.getStatusCode().value());
    }
}

package dev.retryaudit.junit;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.http.HttpClient;
import java.time.Duration;
import org.springframework.core.retry.RetryPolicy;
import org.springframework.core.retry.RetryTemplate;
import org.springframework.http.HttpHeaders;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.HttpStatusCodeException;
import org.springframework.web.client.RestClient;

/**
 * Spring's {@link RestClient}, which does not retry on its own, retried two ways: by spring-core's
 * {@link RetryTemplate} (an exponential backoff from 300 ms that never reads Retry-After), and by a request
 * interceptor that waits what Retry-After asks ({@link RetryAfter}).
 */
final class RestClients {
    private static final int RETRIES = 4;

    private RestClients() {
    }

    /** GETs {@code url} through a RetryTemplate with a backoff of 300 ms, doubled each retry; returns the final status. */
    static int retryTemplate(String url) {
        RetryPolicy policy = RetryPolicy.builder().maxRetries(RETRIES).delay(Duration.ofMillis(300)).multiplier(2)
                .predicate(t -> t instanceof HttpStatusCodeException e && RetryAfter.retryable(e.getStatusCode().value()))
                .build();
        RestClient client = client().build();
        return new RetryTemplate(policy).invoke(() -> client.get().uri(url).retrieve().toBodilessEntity())
                .getStatusCode().value();
    }

    /** GETs {@code url} through an interceptor that retries as Retry-After asks; returns the final status. */
    static int honouringRetryAfter(String url) {
        RestClient client = client().requestInterceptor(retrying()).build();
        return client.get().uri(url).retrieve().toBodilessEntity().getStatusCode().value();
    }

    private static RestClient.Builder client() {
        return RestClient.builder().requestFactory(new JdkClientHttpRequestFactory(
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()));
    }

    private static ClientHttpRequestInterceptor retrying() {
        return (request, body, execution) -> {
            ClientHttpResponse response = execution.execute(request, body);
            for (int retry = 1; retry <= RETRIES && RetryAfter.retryable(response.getStatusCode().value()); retry++) {
                Duration wait = RetryAfter.before(retry, response.getHeaders().getFirst(HttpHeaders.RETRY_AFTER));
                response.close();
                try {
                    RetryAfter.sleep(wait);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while waiting to retry");
                } catch (IllegalStateException e) {
                    throw new IOException(e.getMessage(), e);
                }
                response = execution.execute(request, body);
            }
            return response;
        };
    }
}

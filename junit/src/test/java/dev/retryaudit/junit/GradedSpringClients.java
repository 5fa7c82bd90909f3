package dev.retryaudit.junit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.condition.EnabledIf;

/**
 * Spring's RestClient and WebClient, each retried one way that reads Retry-After and one way that does not,
 * graded against scenarios of the {@code http} suite; run and asserted by {@link RetryProbeSuiteTest}.
 */
@EnabledIf("dev.retryaudit.junit.Graded#enabled")
class GradedSpringClients {
    @RetryProbeSuite(value = "http", scenarios = {"seconds-503", "server-error-500"})
    void restClientWithRetryAfterInterceptor(String url) {
        assertThat(RestClients.honouringRetryAfter(url)).isEqualTo(200);
    }

    @RetryProbeSuite(value = "http", scenarios = {"seconds-503"})
    void restClientWithRetryTemplate(String url) {
        assertThat(RestClients.retryTemplate(url)).isEqualTo(200);
    }

    @RetryProbeSuite(value = "http", scenarios = {"seconds-503", "server-error-500"})
    void webClientRetryWhenReadingRetryAfter(String url) {
        assertThat(WebClients.honouringRetryAfter(url)).isEqualTo(200);
    }

    @RetryProbeSuite(value = "http", scenarios = {"seconds-503"})
    void webClientRetryBackoff(String url) {
        assertThat(WebClients.backoff(url)).isEqualTo(200);
    }
}

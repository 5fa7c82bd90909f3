package dev.retryaudit.junit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.condition.EnabledIf;

/**
 * resilience4j's Retry with an IntervalBiFunction that reads Retry-After and with a fixed wait, graded against
 * scenarios of the {@code http} suite; run and asserted by {@link RetryProbeSuiteTest}.
 */
@EnabledIf("dev.retryaudit.junit.Graded#enabled")
class GradedResilience4jClients {
    @RetryProbeSuite(value = "http", scenarios = {"seconds-503", "http-date-future"})
    void intervalBiFunctionReadingRetryAfter(String url) throws Exception {
        assertThat(Resilience4jClients.honouringRetryAfter(url)).isEqualTo(200);
    }

    @RetryProbeSuite(value = "http", scenarios = {"seconds-503", "http-date-future"})
    void fixedWaitDuration(String url) throws Exception {
        assertThat(Resilience4jClients.fixedWait(url)).isEqualTo(200);
    }
}

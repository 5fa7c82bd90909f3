package dev.retryaudit.junit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.condition.EnabledIf;

/**
 * The JDK HttpClient's hand-written retry loops graded against scenarios of the {@code http} suite; run and
 * asserted by {@link RetryProbeSuiteTest}.
 */
@EnabledIf("dev.retryaudit.junit.Graded#enabled")
class GradedJdkClients {
    @RetryProbeSuite(value = "http", scenarios = {"seconds-503", "http-date-future", "http-date-past",
            "over-120-seconds", "negative", "server-error-500"})
    void honouringRetryAfter(String url) throws Exception {
        assertThat(JdkClients.honouringRetryAfter(url)).isEqualTo(200);
    }

    @RetryProbeSuite(value = "http", scenarios = {"seconds-503", "server-error-500"})
    void fixedWait(String url) throws Exception {
        assertThat(JdkClients.fixedWait(url)).isEqualTo(200);
    }
}

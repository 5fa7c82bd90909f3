package dev.retryaudit.junit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.condition.EnabledIf;

/**
 * The JDK HttpClient's POST loops graded against the {@code writes} suite (all three scenarios); run and asserted
 * by {@link RetryProbeSuiteTest}. A 422 is an answer these methods accept: the scenario grades whether the
 * client re-sent it, not the status it ended with.
 */
@EnabledIf("dev.retryaudit.junit.Graded#enabled")
class GradedWriteClients {
    @RetryProbeSuite("writes")
    void keyedRetryingWhatMayPass(String url) throws Exception {
        assertThat(JdkWriteClients.keyedRetryingWhatMayPass(url)).isIn(200, 422);
    }

    @RetryProbeSuite("writes")
    void keylessRetryingEverything(String url) throws Exception {
        assertThat(JdkWriteClients.keylessRetryingEverything(url)).isIn(200, 422);
    }
}

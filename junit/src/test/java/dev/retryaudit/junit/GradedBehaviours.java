package dev.retryaudit.junit;

import static org.assertj.core.api.Assertions.assertThat;

import okhttp3.OkHttpClient;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * How {@code @RetryProbeSuite} ends a call other than by a verdict on a client that returned: a client still
 * waiting at the limit, a method that calls nothing (failed, or skipped when that is allowed), a client that did
 * right in a method that failed on its own account, and a suite or a scenario that does not exist; run and asserted by
 * {@link RetryProbeSuiteTest}.
 */
@EnabledIf("dev.retryaudit.junit.Graded#enabled")
class GradedBehaviours {
    /** OkHttp's interceptor sits through any Retry-After: at 61 s, it is still waiting when interrupted at 3 s. */
    @RetryProbeSuite(value = "http", scenarios = "over-60-seconds", timeoutSeconds = 3)
    void waitsWhateverIsAsked(String url) throws Exception {
        OkHttpClient client = OkHttpClients.honouringRetryAfter();
        assertThat(OkHttpClients.get(client, url)).isEqualTo(200);
    }

    @RetryProbeSuite(value = "http", scenarios = "zero")
    void callsNothing(String url) {
        assertThat(url).startsWith("http://127.0.0.1:");
    }

    @RetryProbeSuite(value = "http", scenarios = "zero", allowNotTested = true)
    void callsNothingAllowed(String url) {
        assertThat(url).startsWith("http://127.0.0.1:");
    }

    @RetryProbeSuite(value = "http", scenarios = "seconds-503")
    void honouringButFailingItsOwnAssertion(String url) throws Exception {
        assertThat(JdkClients.honouringRetryAfter(url)).as("the final status").isEqualTo(204);
    }

    @RetryProbeSuite("grpc")
    void unknownSuite(String url) throws Exception {
        JdkClients.honouringRetryAfter(url);
    }

    @RetryProbeSuite(value = "http", scenarios = {"seconds-503", "no-such-scenario"})
    void unknownScenario(String url) throws Exception {
        JdkClients.honouringRetryAfter(url);
    }
}

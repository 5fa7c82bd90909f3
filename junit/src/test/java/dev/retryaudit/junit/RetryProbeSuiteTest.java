package dev.retryaudit.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code @RetryProbeSuite} grades real clients in the test's JVM, one test per scenario: each library's client
 * retried without reading Retry-After fails with the verdict's line, and the same client retried as Retry-After
 * asks passes. In each test the violated client runs first, so that the honoured one's first wait is not also
 * the JVM's first pass through the library's error path.
 */
class RetryProbeSuiteTest {
    private static final String WHAT_SECONDS_503 = " (server: 2x 503 Retry-After: 2, 1 s, then 200; client: 3 GETs, waits ";

    @Test
    void theJdkHttpClientWithAFixedWaitComesEarlyAndTheLoopReadingRetryAfterHonoursEveryScenario() {
        Map<String, String> fixed = Graded.run(GradedJdkClients.class, "fixedWait(java.lang.String)");
        assertThat(fixed).containsOnlyKeys("seconds-503", "server-error-500");
        assertEarly(fixed.get("seconds-503"), "seconds-503", "(Retry-After: 2 on attempt 1)");
        assertThat(fixed.get("server-error-500")).isEqualTo("passed");

        assertThat(Graded.run(GradedJdkClients.class, "honouringRetryAfter(java.lang.String)")).containsExactly(
                Map.entry("seconds-503", "passed"), Map.entry("http-date-future", "passed"),
                Map.entry("http-date-past", "passed"), Map.entry("over-120-seconds", "passed"),
                Map.entry("negative", "passed"), Map.entry("server-error-500", "passed"));
    }

    @Test
    void springsRestClientUnderARetryTemplateComesEarlyAndUnderARetryAfterInterceptorHonours() {
        Map<String, String> template = Graded.run(GradedSpringClients.class, "restClientWithRetryTemplate(java.lang.String)");
        assertThat(template).containsOnlyKeys("seconds-503");
        assertEarly(template.get("seconds-503"), "seconds-503", WHAT_SECONDS_503);

        assertThat(Graded.run(GradedSpringClients.class, "restClientWithRetryAfterInterceptor(java.lang.String)"))
                .containsExactly(Map.entry("seconds-503", "passed"), Map.entry("server-error-500", "passed"));
    }

    @Test
    void springsWebClientUnderRetryBackoffComesEarlyAndUnderARetryWhenReadingTheHeaderHonours() {
        Map<String, String> backoff = Graded.run(GradedSpringClients.class, "webClientRetryBackoff(java.lang.String)");
        assertThat(backoff).containsOnlyKeys("seconds-503");
        assertEarly(backoff.get("seconds-503"), "seconds-503", WHAT_SECONDS_503);

        assertThat(Graded.run(GradedSpringClients.class, "webClientRetryWhenReadingRetryAfter(java.lang.String)"))
                .containsExactly(Map.entry("seconds-503", "passed"), Map.entry("server-error-500", "passed"));
    }

    @Test
    void resilience4jWithAFixedWaitComesEarlyAndWithAnIntervalBiFunctionReadingRetryAfterHonours() {
        Map<String, String> fixed = Graded.run(GradedResilience4jClients.class, "fixedWaitDuration(java.lang.String)");
        assertThat(fixed).containsOnlyKeys("seconds-503", "http-date-future");
        assertEarly(fixed.get("seconds-503"), "seconds-503", WHAT_SECONDS_503);
        assertEarly(fixed.get("http-date-future"), "http-date-future",
                " (server: 2x 429 Retry-After: HTTP-date +3, 2 s, then 200; client: 3 GETs, waits ");

        assertThat(Graded.run(GradedResilience4jClients.class, "intervalBiFunctionReadingRetryAfter(java.lang.String)"))
                .containsExactly(Map.entry("seconds-503", "passed"), Map.entry("http-date-future", "passed"));
    }

    @Test
    void aKeyedPostThatKeepsA422IsHonouredWhereTheServerDedupesAndAKeylessRetryOnEveryErrorViolatesEachWritesScenario() {
        Map<String, String> keyed = Graded.run(GradedWriteClients.class, "keyedRetryingWhatMayPass(java.lang.String)");
        assertThat(keyed).containsOnlyKeys("held-write-dedupe", "held-write-no-dedupe", "rejected-422");
        assertThat(keyed.get("held-write-dedupe")).isEqualTo("passed");
        assertThat(keyed.get("held-write-no-dedupe")).startsWith(
                "failed: held-write-no-dedupe: violated: timeout-replay/unreconciled: attempt 2 of held-write-no-dedupe: ")
                .containsPattern(" \\(server: 1x held 3 s after committing, no dedupe, then 200; client: 2 POSTs,"
                        + " waits \\d+ ms, keyed; exit 0\\)$");
        assertThat(keyed.get("rejected-422")).isEqualTo("passed");

        Map<String, String> keyless = Graded.run(GradedWriteClients.class, "keylessRetryingEverything(java.lang.String)");
        assertThat(keyless).containsOnlyKeys("held-write-dedupe", "held-write-no-dedupe", "rejected-422");
        assertThat(keyless.get("held-write-dedupe")).startsWith("failed: held-write-dedupe: violated: timeout-replay/keyless: ")
                .contains("neither attempt sent an idempotency key").endsWith(" ms, keyless; exit 0)");
        assertThat(keyless.get("held-write-no-dedupe")).startsWith(
                "failed: held-write-no-dedupe: violated: timeout-replay/keyless: ");
        assertThat(keyless.get("rejected-422")).startsWith("failed: rejected-422: violated: validation-repeat/identical: ")
                .contains("after it failed with status 422").containsPattern(" \\(server: 1x 422 \\(rejected as invalid\\),"
                        + " then 200; client: 2 POSTs, waits \\d+ ms; exit 0\\)$");
    }

    @Test
    void aClientStillWaitingAtTheLimitOfAScenarioThatLetsItGiveUpIsHonoured() {
        assertThat(Graded.run(GradedBehaviours.class, "waitsWhateverIsAsked(java.lang.String)"))
                .containsExactly(Map.entry("over-60-seconds", "passed"));
    }

    @Test
    void aMethodThatCallsNothingFailsAsNotTestedOrIsSkippedWhenThatIsAllowed() {
        String line = "zero: not tested: probe/not-tested: nothing was tested: the client exited with code 0 without"
                + " calling http://127.0.0.1:";
        assertThat(Graded.run(GradedBehaviours.class, "callsNothing(java.lang.String)").get("zero"))
                .startsWith("failed: " + line).endsWith(" (server: 2x 429 Retry-After: 0 s, then 200; client: 0 GETs; exit 0)");
        assertThat(Graded.run(GradedBehaviours.class, "callsNothingAllowed(java.lang.String)").get("zero"))
                .startsWith("skipped: " + line);
    }

    @Test
    void aClientThatDidRightInAMethodThatFailedOnItsOwnFailsWithWhatTheMethodThrew() {
        assertThat(Graded.run(GradedBehaviours.class, "honouringButFailingItsOwnAssertion(java.lang.String)"))
                .containsOnlyKeys("seconds-503").extractingByKey("seconds-503", STRING)
                .startsWith("failed: [the final status] ").contains("expected: 204").contains("but was: 200");
    }

    @Test
    void aSuiteThatDoesNotExistIsAConfigurationErrorNamingTheSuites() {
        assertThat(Graded.run(GradedBehaviours.class, "unknownSuite(java.lang.String)")).containsExactly(
                Map.entry("unknownSuite", "failed: @RetryProbeSuite: no suite \"grpc\"; the suites are http, writes, otlp"));
    }

    @Test
    void aScenarioTheSuiteDoesNotHaveIsAConfigurationErrorNamingTheSuitesScenarios() {
        assertThat(Graded.run(GradedBehaviours.class, "unknownScenario(java.lang.String)")).containsExactly(
                Map.entry("unknownScenario", "failed: @RetryProbeSuite: suite http has no scenario no-such-scenario;"
                        + " its scenarios are seconds-schedule, seconds-503, http-date-future, http-date-past,"
                        + " over-60-seconds, over-120-seconds, zero, negative, fractional, retry-after-ms,"
                        + " retry-after-ms-beside-seconds, overloaded-529, server-error-500"));
    }

    /** That {@code ended} is a failure of {@code id} by {@code retry-after/early}, its line containing {@code what}. */
    private static void assertEarly(String ended, String id, String what) {
        assertThat(ended).startsWith("failed: " + id + ": violated: retry-after/early: attempt 2 of " + id + ": ")
                .contains(" before Retry-After allowed ").contains(what).endsWith("; exit 0)");
    }
}

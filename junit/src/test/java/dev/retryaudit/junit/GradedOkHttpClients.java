package dev.retryaudit.junit;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * The tests {@link RetryProbeExtensionTest} runs and grades: the same GET through two OkHttp clients against
 * a probe asking for 2 s, then 1 s. Run on their own (not by that test) they are skipped, since one of them
 * is meant to fail.
 */
@EnabledIf("dev.retryaudit.junit.Graded#enabled")
class GradedOkHttpClients {
    @Test
    @RetryProbe(failures = 2, delays = {2, 1})
    void honouringRetryAfter(String url) throws Exception {
        assertThat(OkHttpClients.get(OkHttpClients.honouringRetryAfter(), url)).isEqualTo(200);
    }

    @Test
    @RetryProbe(failures = 2, delays = {2, 1})
    void fixedBackoff(String url) throws Exception {
        assertThat(OkHttpClients.get(OkHttpClients.fixedBackoff(), url)).isEqualTo(200);
    }
}

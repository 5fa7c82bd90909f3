package dev.retryaudit.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code @RetryProbe} grades an OkHttp client in the test's JVM: the client whose interceptor honours
 * Retry-After passes; the one whose interceptor retries after a fixed half second fails, with the verdict's
 * line ({@code retry-after/early}). The graded tests are in {@link GradedOkHttpClients}.
 */
class RetryProbeExtensionTest {
    @Test
    void theClientThatHonoursRetryAfterPassesAndTheFixedBackoffFailsWithTheVerdict() {
        assertThat(Graded.run(GradedOkHttpClients.class, "fixedBackoff(java.lang.String)").get("fixedBackoff"))
                .startsWith("failed: retry probe: violated: retry-after/early: attempt 2 of fixedBackoff(String) came back ")
                .contains(" before Retry-After allowed (Retry-After: 2 on attempt 1) (server: 2x 429 Retry-After: 2, 1 s,"
                        + " then 200; client: 3 GETs, waits ")
                .endsWith(" ms; exit 0)");
        assertThat(Graded.run(GradedOkHttpClients.class, "honouringRetryAfter(java.lang.String)"))
                .containsExactly(Map.entry("honouringRetryAfter", "passed"));
    }
}

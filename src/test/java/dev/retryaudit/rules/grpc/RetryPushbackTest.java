package dev.retryaudit.rules.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** gRFC A6's reading of grpc-retry-pushback-ms: a non-negative integer is a delay, anything else a stop. */
class RetryPushbackTest {
    @Test
    void aNonNegativeIntegerIsADelayInMilliseconds() {
        assertThat(RetryPushback.delayMs("250")).isEqualTo(250);
        assertThat(RetryPushback.delayMs(" 0 ")).isZero();
        assertThat(RetryPushback.delayMs("99999999999999999999999")).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void anythingElseSaysDoNotRetry() {
        for (String stop : new String[] {"-1", "1.5", "", "soon", "+5", "1e3"}) {
            assertThat(RetryPushback.delayMs(stop)).as(stop).isEqualTo(RetryPushback.STOP);
        }
        assertThat(RetryPushback.whyStop("-1")).isEqualTo("a negative pushback");
        assertThat(RetryPushback.whyStop("1.5")).isEqualTo("a pushback that is not a whole number of milliseconds");
        assertThat(RetryPushback.whyStop(" ")).isEqualTo("an empty pushback");
    }
}

package dev.retryaudit.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.input.Rfc3339;
import org.junit.jupiter.api.Test;

class HeaderFormatTest {
    @Test
    void secondsIsTheDelayItself() {
        assertThat(HeaderFormat.SECONDS.retryAfter(123_456, 2)).isEqualTo("2");
        assertThat(HeaderFormat.SECONDS.retryAfter(123_456, 0)).isEqualTo("0");
    }

    @Test
    void httpDateIsAnImfFixdateOfTheTruncatedReceiptPlusTheDelay() throws Exception {
        long received = Rfc3339.parse("2026-09-07T10:10:00.700Z");

        assertThat(HeaderFormat.HTTP_DATE.retryAfter(received, 2)).isEqualTo("Mon, 07 Sep 2026 10:10:02 GMT");
        assertThat(HeaderFormat.HTTP_DATE.retryAfter(Rfc3339.parse("2026-12-31T23:59:59.999Z"), 1))
                .isEqualTo("Fri, 01 Jan 2027 00:00:00 GMT");
    }

    @Test
    void namesAreTheCommandLineValues() {
        assertThat(HeaderFormat.ids()).containsExactly("seconds", "http-date");
        assertThat(HeaderFormat.parse("http-date")).isEqualTo(HeaderFormat.HTTP_DATE);
        assertThat(HeaderFormat.parse("HTTP_DATE")).isNull();
    }
}

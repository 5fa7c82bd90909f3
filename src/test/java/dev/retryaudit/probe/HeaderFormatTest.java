package dev.retryaudit.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.json.Rfc3339;
import org.junit.jupiter.api.Test;

class HeaderFormatTest {
    @Test
    void secondsIsTheDelayItself() {
        assertThat(HeaderFormat.SECONDS.ask(123_456, 2)).isEqualTo(new HeaderFormat.Ask("2", null, 2000, null));
        assertThat(HeaderFormat.SECONDS.ask(123_456, 0)).isEqualTo(new HeaderFormat.Ask("0", null, 0, null));
    }

    @Test
    void httpDateRoundsUpSoTheWaitIsNeverShorterThanTheDelay() throws Exception {
        HeaderFormat.Ask late = HeaderFormat.HTTP_DATE.ask(Rfc3339.parse("2026-09-07T10:10:00.700Z"), 2);
        HeaderFormat.Ask whole = HeaderFormat.HTTP_DATE.ask(Rfc3339.parse("2026-09-07T10:10:00.000Z"), 2);
        HeaderFormat.Ask newYear = HeaderFormat.HTTP_DATE.ask(Rfc3339.parse("2026-12-31T23:59:58.999Z"), 1);

        assertThat(late.retryAfter()).isEqualTo("Mon, 07 Sep 2026 10:10:03 GMT");
        assertThat(late.askedMillis()).isEqualTo(2300);
        assertThat(whole.retryAfter()).isEqualTo("Mon, 07 Sep 2026 10:10:02 GMT");
        assertThat(whole.askedMillis()).isEqualTo(2000);
        assertThat(newYear.retryAfter()).isEqualTo("Fri, 01 Jan 2027 00:00:00 GMT");
        assertThat(newYear.askedMillis()).isEqualTo(1001);
    }

    @Test
    void retryAfterMsAloneAndBesideALongerRetryAfter() {
        assertThat(HeaderFormat.RETRY_AFTER_MS.ask(5, 3)).isEqualTo(new HeaderFormat.Ask(null, "3000", 3000, null));
        assertThat(HeaderFormat.RETRY_AFTER_MS_AND_SECONDS.ask(5, 3))
                .isEqualTo(new HeaderFormat.Ask("7", "3000", 3000, 7000L));
    }

    @Test
    void namesAreTheCommandLineValues() {
        assertThat(HeaderFormat.ids()).containsExactly("seconds", "http-date", "retry-after-ms",
                "retry-after-ms-and-seconds", "http-date-past", "none", "negative", "fractional");
        assertThat(HeaderFormat.parse("http-date")).isEqualTo(HeaderFormat.HTTP_DATE);
        assertThat(HeaderFormat.parse("HTTP_DATE")).isNull();
    }
}

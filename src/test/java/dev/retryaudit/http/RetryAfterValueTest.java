package dev.retryaudit.http;

import dev.retryaudit.http.RetryAfterValue.Form;
import dev.retryaudit.text.Times;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import static org.assertj.core.api.Assertions.assertThat;

/** Retry-After values: delay-seconds with saturation, dates, optional whitespace, and invalid values with their reasons. */
class RetryAfterValueTest {
    private static final long RECEIVED = Instant.parse("2026-09-07T10:05:00.100Z").toEpochMilli();

    @Test
    void delaySecondsCountFromTheResponse() {
        RetryAfterValue v = RetryAfterValue.parse("2", RECEIVED);
        assertThat(v).isEqualTo(new RetryAfterValue(Form.DELAY_SECONDS, 2, Times.NONE));
        assertThat(v.waitUntil(RECEIVED, Times.NONE)).isEqualTo(RECEIVED + 2000);
    }

    @Test
    void leadingZerosAndZeroAreDigitsToo() {
        assertThat(RetryAfterValue.parse("0", RECEIVED).seconds()).isZero();
        assertThat(RetryAfterValue.parse("007", RECEIVED).seconds()).isEqualTo(7);
    }

    @Test
    void largeValuesStayExact() {
        RetryAfterValue v = RetryAfterValue.parse("9999999999", RECEIVED);
        assertThat(v.seconds()).isEqualTo(9_999_999_999L);
        assertThat(v.waitUntil(RECEIVED, Times.NONE)).isEqualTo(RECEIVED + 9_999_999_999_000L);
    }

    @Test
    void hugeValuesSaturateInsteadOfWrappingNegative() {
        RetryAfterValue v = RetryAfterValue.parse("99999999999999999999999", RECEIVED);
        assertThat(v.form()).isEqualTo(Form.DELAY_SECONDS);
        assertThat(v.seconds()).isEqualTo(Long.MAX_VALUE);
        assertThat(v.delayMillis()).isEqualTo(Long.MAX_VALUE);
        assertThat(v.waitUntil(RECEIVED, Times.NONE)).isEqualTo(Long.MAX_VALUE);
        assertThat(RetryAfterValue.parse("9223372036854775", RECEIVED).waitUntil(RECEIVED, Times.NONE))
                .isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void optionalWhitespaceAroundTheValueIsStripped() {
        assertThat(RetryAfterValue.parse(" 2 ", RECEIVED).seconds()).isEqualTo(2);
        assertThat(RetryAfterValue.parse("\t2", RECEIVED).seconds()).isEqualTo(2);
    }

    @Test
    void readsEachDateForm() {
        long date = Instant.parse("2026-09-07T10:10:02Z").toEpochMilli();
        for (String s : new String[] {"Mon, 07 Sep 2026 10:10:02 GMT", "Monday, 07-Sep-26 10:10:02 GMT",
            "Mon Sep  7 10:10:02 2026"}) {
            assertThat(RetryAfterValue.parse(s, RECEIVED)).as(s).isEqualTo(new RetryAfterValue(Form.HTTP_DATE, 0, date));
        }
    }

    @Test
    void aDateIsMovedByTheResponseDateWhenBothTimesAreKnown() {
        RetryAfterValue v = RetryAfterValue.parse("Mon, 07 Sep 2026 11:05:02 GMT", RECEIVED);
        long serverNow = Instant.parse("2026-09-07T11:05:00Z").toEpochMilli();
        assertThat(v.waitUntil(RECEIVED, serverNow)).isEqualTo(RECEIVED + 2000);
        assertThat(v.waitUntil(RECEIVED, Times.NONE)).isEqualTo(v.date());
        assertThat(v.waitUntil(Times.NONE, serverNow)).isEqualTo(v.date());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "-1|delay-seconds has no sign",
        "+2|delay-seconds has no sign",
        "1.5|delay-seconds must be whole seconds, without fraction or exponent",
        "1e3|delay-seconds must be whole seconds, without fraction or exponent",
        "inf|delay-seconds must be a finite number",
        "Infinity|delay-seconds must be a finite number",
        "NaN|delay-seconds must be a finite number",
        "''|it is empty",
        "'  '|it is empty",
        "2 s|it is neither a number of seconds nor an HTTP-date",
        "1 2|it is neither a number of seconds nor an HTTP-date",
        "soon|it is neither a number of seconds nor an HTTP-date",
        "0x10|it is neither a number of seconds nor an HTTP-date",
        "２|it is neither a number of seconds nor an HTTP-date",
        "'Mon, 07 Sep 2026 10:10:02 UTC'|a date must be an IMF-fixdate, RFC 850 or asctime date in GMT",
        "2026-09-07T10:10:02Z|it is neither a number of seconds nor an HTTP-date",
    })
    void refusesWhatTheGrammarDoesNotAllow(String raw, String why) {
        assertThat(RetryAfterValue.parse(raw, RECEIVED)).isNull();
        assertThat(RetryAfterValue.whyInvalid(raw)).isEqualTo(why);
    }

    @ParameterizedTest
    @ValueSource(strings = {"2\n", "\u00a02", "2\u00a0"})
    void onlySpaceAndTabCountAsOptionalWhitespace(String raw) {
        assertThat(RetryAfterValue.parse(raw, RECEIVED)).isNull();
    }

    @Test
    void formsHaveTheirRfcNames() {
        assertThat(Form.DELAY_SECONDS.id()).isEqualTo("delay-seconds");
        assertThat(Form.HTTP_DATE.id()).isEqualTo("http-date");
    }
}

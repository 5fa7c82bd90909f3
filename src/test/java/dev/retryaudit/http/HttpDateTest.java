package dev.retryaudit.http;

import dev.retryaudit.text.Times;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import static org.assertj.core.api.Assertions.assertThat;

/** The three HTTP-date forms, the two-digit-year rule, and what the grammar refuses. */
class HttpDateTest {
    private static final long RFC_EXAMPLE = Instant.parse("1994-11-06T08:49:37Z").toEpochMilli();
    private static final long IN_2026 = Instant.parse("2026-09-07T10:00:00Z").toEpochMilli();

    @Test
    void readsTheThreeFormsOfTheRfcExample() {
        assertThat(HttpDate.parse("Sun, 06 Nov 1994 08:49:37 GMT", IN_2026)).isEqualTo(RFC_EXAMPLE);
        assertThat(HttpDate.parse("Sunday, 06-Nov-94 08:49:37 GMT", IN_2026)).isEqualTo(RFC_EXAMPLE);
        assertThat(HttpDate.parse("Sun Nov  6 08:49:37 1994", IN_2026)).isEqualTo(RFC_EXAMPLE);
    }

    @Test
    void asctimeTakesATwoDigitDayToo() {
        assertThat(HttpDate.parse("Mon Sep 07 10:10:02 2026", IN_2026))
                .isEqualTo(Instant.parse("2026-09-07T10:10:02Z").toEpochMilli());
    }

    @Test
    void rfc850YearsMoreThanFiftyYearsAheadFallInThePastCentury() {
        assertThat(HttpDate.fullYear(76, IN_2026)).isEqualTo(2076);
        assertThat(HttpDate.fullYear(77, IN_2026)).isEqualTo(1977);
        assertThat(HttpDate.fullYear(26, IN_2026)).isEqualTo(2026);
        assertThat(HttpDate.fullYear(0, IN_2026)).isEqualTo(2000);
        assertThat(HttpDate.parse("Friday, 01-Jan-77 00:00:00 GMT", IN_2026))
                .isEqualTo(Instant.parse("1977-01-01T00:00:00Z").toEpochMilli());
        assertThat(HttpDate.parse("Friday, 01-Jan-76 00:00:00 GMT", IN_2026))
                .isEqualTo(Instant.parse("2076-01-01T00:00:00Z").toEpochMilli());
    }

    @Test
    void withoutAReferenceTheEpochResolvesTwoDigitYears() {
        assertThat(HttpDate.fullYear(20, Times.NONE)).isEqualTo(2020);
        assertThat(HttpDate.fullYear(21, Times.NONE)).isEqualTo(1921);
    }

    @Test
    void allowsALeapSecondAndSurroundingWhitespace() {
        assertThat(HttpDate.parse("Wed, 31 Dec 2025 23:59:60 GMT", IN_2026))
                .isEqualTo(Instant.parse("2026-01-01T00:00:00Z").toEpochMilli());
        assertThat(HttpDate.parse(" \tSun, 06 Nov 1994 08:49:37 GMT ", IN_2026)).isEqualTo(RFC_EXAMPLE);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "",
        "Sun, 6 Nov 1994 08:49:37 GMT",
        "sun, 06 Nov 1994 08:49:37 GMT",
        "Sun, 06 nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:37 UTC",
        "Sun, 06 Nov 1994 08:49:37 +0000",
        "Sun, 06 Nov 1994 08:49:37 GMTX",
        "Sun, 06 Nov 94 08:49:37 GMT",
        "Sun, 06 Nov 1994 24:00:00 GMT",
        "Sun, 06 Nov 1994 08:60:00 GMT",
        "Sun, 06 Nov 1994 08:49:61 GMT",
        "Sun, 31 Nov 1994 08:49:37 GMT",
        "Sun, 29 Feb 2026 08:49:37 GMT",
        "Sun,  06 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 8:49:37 GMT",
        "Sunday, 06 Nov 1994 08:49:37 GMT",
        "Sun, 06-Nov-94 08:49:37 GMT",
        "Sunday, 06-Nov-1994 08:49:37 GMT",
        "Sunday, 06-Nov-94 08:49:37",
        "Sun Nov 6 08:49:37 1994",
        "Sun Nov  6 08:49:37 94",
        "Sun Nov  6 08:49:37 1994 GMT",
        "Sun, 06 Nov 1994",
        "2026-09-07T10:10:02Z",
        "Xyz, 06 Nov 1994 08:49:37 GMT",
    })
    void refusesAnythingElse(String value) {
        assertThat(HttpDate.parse(value, IN_2026)).isEqualTo(Times.NONE);
    }
}

package dev.retryaudit.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Times print as RFC 3339 UTC with milliseconds, the same as java.time's formatter at every instant. */
class TimesTest {
    private static final DateTimeFormatter REFERENCE =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSX").withZone(ZoneOffset.UTC);

    private static String reference(long millis) {
        return REFERENCE.format(Instant.ofEpochMilli(millis));
    }

    @Test
    void printsWhatTheFormatterPrints() {
        assertThat(Times.format(0)).isEqualTo("1970-01-01T00:00:00.000Z");
        assertThat(Times.format(Instant.parse("2026-09-07T14:00:05.042Z").toEpochMilli()))
                .isEqualTo("2026-09-07T14:00:05.042Z");
        Random rnd = new Random(3);
        for (int i = 0; i < 100_000; i++) {
            long millis = rnd.nextLong() % 400_000_000_000_000L;
            assertThat(Times.format(millis)).isEqualTo(reference(millis));
        }
    }

    @Test
    void yearsOutsideFourDigitsAndTheEdgesOfEachDay() {
        for (String at : new String[] {"0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z", "1969-12-31T23:59:59.999Z",
            "2024-02-29T12:00:00Z", "+10000-01-01T00:00:00Z", "-0001-12-31T23:59:59.999Z"}) {
            long millis = Instant.parse(at).toEpochMilli();
            for (long d = -1; d <= 1; d++) {
                assertThat(Times.format(millis + d)).isEqualTo(reference(millis + d));
            }
        }
        assertThat(Times.format(Instant.parse("+10000-01-01T00:00:00Z").toEpochMilli()))
                .isEqualTo("+10000-01-01T00:00:00.000Z");
    }
}

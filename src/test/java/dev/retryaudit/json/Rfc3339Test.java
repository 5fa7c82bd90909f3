package dev.retryaudit.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.OffsetDateTime;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The hand-written RFC 3339 parser agrees with java.time and refuses what RFC 3339 refuses. */
class Rfc3339Test {
    @ParameterizedTest
    @ValueSource(strings = {"2026-09-07T14:02:11.000Z", "2026-09-07T14:02:11Z", "2026-09-07t14:02:11.5z",
        "1969-12-31T23:59:59.999Z", "2000-02-29T00:00:00+14:00", "2026-09-07T14:02:11.123456789-05:30",
        "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999+00:00"})
    void agreesWithJavaTime(String s) throws Exception {
        long expected = OffsetDateTime.parse(s.toUpperCase()).toInstant().toEpochMilli();
        assertThat(Rfc3339.parse(s)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"2026-09-07T14:02:11", "2026-09-07T14:02:11.000", "2026-09-07 14:02:11Z",
        "2026-9-07T14:02:11Z", "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z", "2026-09-07T24:00:00Z",
        "2026-09-07T14:60:00Z", "2026-09-07T14:02:11.Z", "2026-09-07T14:02:11+0200", "2026-09-07T14:02:11+24:00",
        "2026-09-07T14:02:11ZZ", "", "yesterday", "2026-09-07T14:02:11+02:00 "})
    void refuses(String s) {
        assertThatThrownBy(() -> Rfc3339.parse(s)).isInstanceOf(Rfc3339.BadTimestamp.class);
    }
}

package dev.retryaudit.rules.retryafter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.model.Finding;
import dev.retryaudit.model.Policy;
import dev.retryaudit.rules.RuleFixtures;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The messages and evidence of the retry-after rules, on their fixtures. */
class RetryAfterFindingsTest {
    private static List<Finding> run(String rule, String name) throws Exception {
        return RuleFixtures.findings(new RuleFixtures.Case(rule,
                RuleFixtures.ROOT.resolve(rule).resolve(name)), Policy.DEFAULTS);
    }

    private static Map<String, Object> map(Object... pairs) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], pairs[i + 1]);
        }
        return m;
    }

    @Test
    void earlyDelaySecondsSaysHowEarlyAgainstTheServersWait() throws Exception {
        Finding f = run("retry-after/early", "fail-seconds-early").get(0);
        assertThat(f.message()).isEqualTo("attempt 2 of 0b9d7c1e-8f2a-4e3b-a6c4-5d1e9f0a2b37 came back 1688 ms"
                + " before Retry-After allowed (Retry-After: 2 on attempt 1)");
        assertThat(f.evidence().asMap()).containsExactlyEntriesOf(map(
                "retry_after", "2",
                "retry_after_form", "delay-seconds",
                "retry_after_attempt", 1,
                "retry_after_until", "2026-09-07T10:05:02.100Z",
                "tolerance_ms", 100L,
                "allowed_at", "2026-09-07T10:05:02.000Z",
                "started_at", "2026-09-07T10:05:00.412Z",
                "early_ms", 1688L));
    }

    @Test
    void earlyDateOnAServerClockGetsNoSkewAllowance() throws Exception {
        Finding f = run("retry-after/early", "fail-http-date-early").get(0);
        assertThat(f.message()).endsWith(" came back 290 ms before Retry-After allowed"
                + " (Retry-After: Mon, 07 Sep 2026 10:10:02 GMT on attempt 1)");
        assertThat(f.evidence().asMap()).doesNotContainKey("http_date_skew_ms")
                .containsEntry("retry_after_form", "http-date")
                .containsEntry("allowed_at", "2026-09-07T10:10:01.900Z");
    }

    @Test
    void earlyDateOnAClientClockNamesTheSkewAllowance() throws Exception {
        Finding f = run("retry-after/early", "fail-client-clock-skew").get(0);
        assertThat(f.evidence().asMap()).containsEntry("http_date_skew_ms", 1000L)
                .containsEntry("allowed_at", "2026-09-07T14:00:03.900Z")
                .containsEntry("early_ms", 1101L);
    }

    @Test
    void earlyDateCorrectedByTheDateHeaderNamesIt() throws Exception {
        Finding f = run("retry-after/early", "fail-response-date").get(0);
        assertThat(f.evidence().asMap()).containsEntry("response_date", "Mon, 07 Sep 2026 13:00:00 GMT")
                .containsEntry("retry_after_until", "2026-09-07T14:00:10.000Z")
                .containsEntry("early_ms", 5000L)
                .containsEntry("date_resolution_ms", 1000L)
                .doesNotContainKey("http_date_skew_ms");
    }

    @Test
    void earlyDateCorrectedByTheDateHeaderAllowsForItsWholeSeconds() throws Exception {
        Finding f = run("retry-after/early", "fail-date-resolution").get(0);
        assertThat(f.evidence().asMap()).containsEntry("retry_after_until", "2026-09-07T14:00:02.700Z")
                .containsEntry("allowed_at", "2026-09-07T14:00:01.600Z")
                .containsEntry("early_ms", 1200L);
        assertThat(run("retry-after/early", "pass-date-resolution")).isEmpty();
    }

    @Test
    void earlyWithASaturatedDelayPrintsNoTime() throws Exception {
        List<Finding> found = run("retry-after/early", "fail-huge-delay");
        assertThat(found.get(0).message()).isEqualTo("attempt 2 of sync-1 came back although the server asked"
                + " for a wait too long to count (Retry-After: 99999999999999999999999 on attempt 1)");
        assertThat(found.get(0).evidence().asMap()).containsEntry("retry_after_until", null)
                .containsEntry("allowed_at", null).containsEntry("early_ms", null);
        assertThat(found.get(1).evidence().asMap()).containsEntry("retry_after_until", "2343-07-29T08:46:39.020Z")
                .containsEntry("early_ms", 9_999_996_399_020L);
    }

    @Test
    void invalidSaysWhatIsWrong() throws Exception {
        Finding f = run("retry-after/invalid", "fail-basic").get(1);
        assertThat(f.message()).isEqualTo("attempt 2 of feed-1 got Retry-After \"1.5\", not a valid value"
                + " (delay-seconds must be whole seconds, without fraction or exponent); clients disagree on such"
                + " values, and some crash or retry at once");
        assertThat(f.evidence().asMap()).containsExactlyEntriesOf(map("retry_after", "1.5",
                "problem", "delay-seconds must be whole seconds, without fraction or exponent"));
    }

    @Test
    void excessiveGivesTheWaitAndTheLimit() throws Exception {
        List<Finding> found = run("retry-after/excessive", "fail-basic");
        assertThat(found.get(0).message()).isEqualTo("attempt 1 of report-1 got Retry-After: 21601, a wait of"
                + " 21601 s, above the 21600 s that many clients accept: they cap, overflow or ignore it");
        assertThat(found.get(0).evidence().asMap()).containsExactlyEntriesOf(map("retry_after", "21601",
                "retry_after_form", "delay-seconds", "delay_seconds", 21601L, "max_seconds", 21600L));
        assertThat(found.get(1).message()).contains("a wait of more seconds than 64 bits hold");
        assertThat(found.get(1).evidence().asMap()).containsEntry("delay_seconds", null);
        assertThat(found.get(3).evidence().asMap()).containsEntry("retry_after_form", "http-date")
                .containsEntry("delay_seconds", 21602L);
    }
}

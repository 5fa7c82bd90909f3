package dev.retryaudit.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ProbeFactsTest {
    private static final ProbeFacts.Served SERVED = new ProbeFacts.Served("GET", 429, 3, List.of(3L, 1L, 4L), "seconds",
            0, true, "Idempotency-Key");

    @Test
    void theLineSaysHowTheClientEndedWhatArrivedAndTheVerdict() {
        ProbeFacts killed = facts(new ProbeFacts.ClientEnd(List.of("curl"), null, true, 5),
                new ProbeFacts.Counts(1, 0, 0, 0, 1, false), ProbeFacts.NOT_TESTED, "why");
        ProbeFacts exited = facts(new ProbeFacts.ClientEnd(List.of("curl"), 7, false, 5),
                new ProbeFacts.Counts(2, 1, 0, 0, 1, true), ProbeFacts.VIOLATED, "came back early");

        assertThat(killed.describe()).isEqualTo("the client was killed at the 5 s timeout: 1 GET, did not reach success;"
                + " not tested: why");
        assertThat(exited.describe()).isEqualTo("the client exited with code 7: 2 GETs and 1 request of other methods,"
                + " reached success; violated: came back early");
    }

    @Test
    void requestsPastTheJournalsCapacityAndUnfinishedOnesAreNamed() {
        ProbeFacts served = facts(new ProbeFacts.ClientEnd(List.of(), null, false, 60),
                new ProbeFacts.Counts(10_000, 0, 25, 2, 3, true), ProbeFacts.HONOURED, "fine");

        assertThat(served.describe()).isEqualTo("served for 60 s: 10000 GETs, 25 more past the journal's capacity"
                + " (not recorded), 2 requests that never arrived whole (not attempts), reached success; honoured: fine");
    }

    private static ProbeFacts facts(ProbeFacts.ClientEnd client, ProbeFacts.Counts counts, String verdict, String reason) {
        return new ProbeFacts("http://127.0.0.1:1/p", SERVED, client, counts, verdict, reason, null, List.of(), null);
    }
}

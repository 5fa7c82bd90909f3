package dev.retryaudit.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Fingerprints: stable per operation and attempt, distinct per run for findings about a whole run. */
class FindingTest {
    private static final Location AT = new Location("a.jsonl", 0, 1, 1, null);

    private static Finding of(String operation, Integer attempt, String run) {
        return Finding.builder().rule("budget/retry-ratio").severity(Severity.WARNING).operation(operation)
                .attempt(attempt)
                .run(run).message("m").evidence(Evidence.of()).at(AT).build();
    }

    private static Finding.Builder overlap() {
        return Finding.builder().rule("trace/overlap").severity(Severity.WARNING).operation("op").attempt(2).tool("t")
                .run("r").evidence(Evidence.of()).at(AT);
    }

    @Test
    void findingsAboutTwoRunsInOneSourceHaveDifferentFingerprints() {
        assertThat(of(null, null, "run-a").fingerprint()).isNotEqualTo(of(null, null, "run-b").fingerprint())
                .isNotEqualTo(of(null, null, null).fingerprint());
    }

    @Test
    void theRunDoesNotChangeTheFingerprintOfAnOperationsFinding() {
        assertThat(of("op", 2, "run-a").fingerprint()).isEqualTo(of("op", 2, "run-b").fingerprint())
                .isEqualTo(Finding.fingerprint("budget/retry-ratio", "a.jsonl", "op", 2));
    }

    @Test
    void aMessageBuiltWhenReadMakesTheSameFindingAsItsString() {
        LazyText built = () -> "attempt " + 2 + " overlapped";
        Finding lazy = overlap().message(built).build();
        Finding eager = overlap().message("attempt 2 overlapped").build();
        assertThat(lazy.message()).isEqualTo("attempt 2 overlapped");
        assertThat(lazy).isEqualTo(eager).hasSameHashCodeAs(eager).hasToString(eager.toString());
        assertThat(lazy.fingerprint()).isSameAs(lazy.fingerprint())
                .isEqualTo(Finding.fingerprint("trace/overlap", "a.jsonl", "op", 2));
        Finding given = overlap().message("attempt 2 overlapped").fingerprint("sha256:given").build();
        assertThat(given.fingerprint()).isEqualTo("sha256:given");
        assertThat(given).isNotEqualTo(eager);
        assertThatThrownBy(() -> overlap().message(" ").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("a finding needs a message");
    }

    @Test
    void fingerprintsStayWhatEarlierReportsHold() {
        assertThat(Finding.fingerprint("trace/overlap", "in.jsonl", "op-1", 2))
                .isEqualTo("sha256:375cdef5c4ea8b5d964c561caa64e7dd97f312bb2c2f39848123831f10db6750");
        assertThat(Finding.fingerprint("budget/retry-ratio", "p\u00e4th.jsonl", null, null, "run-\u00fc"))
                .isEqualTo("sha256:769dbe4c918302611dadbb47c8463c6b7b43c5cfa311e05b3b8d5a73c2e01a10");
    }
}

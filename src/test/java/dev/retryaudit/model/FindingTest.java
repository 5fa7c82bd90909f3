package dev.retryaudit.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Fingerprints: stable per operation and attempt, distinct per run for findings about a whole run. */
class FindingTest {
    private static final Location AT = new Location("a.jsonl", 0, 1, 1, null);

    private static Finding of(String operation, Integer attempt, String run) {
        return Finding.of("budget/retry-ratio", Severity.WARNING, operation, attempt, null, run, "m", Evidence.of(), AT);
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
}

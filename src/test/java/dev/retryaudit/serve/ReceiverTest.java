package dev.retryaudit.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.model.Finding;
import dev.retryaudit.model.Limits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** When the receiver audits a linking context: once idle for the idle time plus the longest Retry-After seen in it. */
class ReceiverTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void aContextWaitsForItsLongestRetryAfterBeyondTheIdleTime() throws Exception {
        AtomicLong now = new AtomicLong();
        List<Finding> findings = new ArrayList<>();
        Metrics metrics = new Metrics(1_000_000);
        Receiver r = new Receiver(RetryAudit.defaults(), Limits.DEFAULTS, SECOND, 1_000_000, now::get, findings::add,
                metrics);
        byte[] export = Files.readAllBytes(Path.of("src/test/resources/input/otlp/agent-checkout.json"));
        assertThat(r.otlp(export, 11, false).rejected()).isZero();
        long held = r.heldSpans();
        assertThat(held).isEqualTo(9);

        now.set(SECOND / 2);
        r.sweep();
        assertThat(r.heldSpans()).isEqualTo(held);
        assertThat(findings).isEmpty();

        // Past the idle time: what shares no trace with the context whose 503 asked for Retry-After: 2 is audited.
        now.set(SECOND + SECOND / 2);
        r.sweep();
        assertThat(r.heldSpans()).isBetween(1L, held - 1);
        assertThat(findings).extracting(Finding::rule).doesNotContain("retry-after/early");

        now.set(3 * SECOND + SECOND / 2);
        r.sweep();
        assertThat(r.heldSpans()).isZero();
        assertThat(findings).extracting(Finding::rule)
                .containsExactlyInAnyOrder("timeout-replay/unreconciled", "retry-after/early");
        assertThat(r.finish().findings()).hasSize(2);
        assertThat(metrics.text()).contains("retry_audit_operations_audited_total 5",
                "retry_audit_findings_total{rule=\"retry-after/early\",severity=\"error\"} 1");
    }
}

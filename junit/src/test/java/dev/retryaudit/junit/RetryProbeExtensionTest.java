package dev.retryaudit.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * {@code @RetryProbe} grades an OkHttp client in the test's JVM: the client whose interceptor honours
 * Retry-After passes; the one whose interceptor retries after a fixed half second fails, with the verdict's
 * message ({@code retry-after/early}). The graded tests are in {@link GradedClients}, run here through the
 * JUnit Platform launcher so that the failure itself can be asserted.
 */
class RetryProbeExtensionTest {
    @Test
    void theClientThatHonoursRetryAfterPassesAndTheFixedBackoffFailsWithTheVerdict() {
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        Launcher launcher = LauncherFactory.create();
        launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(GradedClients.class))
                .configurationParameter("retry-audit.graded", "true").build(), listener);
        TestExecutionSummary summary = listener.getSummary();

        assertThat(summary.getTestsSucceededCount()).isEqualTo(1);
        assertThat(summary.getTestsFailedCount()).isEqualTo(1);
        List<TestExecutionSummary.Failure> failures = summary.getFailures();
        assertThat(failures.get(0).getTestIdentifier().getDisplayName()).startsWith("fixedBackoff");
        assertThat(failures.get(0).getException().getMessage()).startsWith("retry probe: violated: came back ")
                .contains("retry-after/early");
    }
}

package dev.retryaudit.junit;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * Runs the graded clients' tests (the {@code Graded*} classes, skipped unless {@value #ENABLED} is set, since
 * some are meant to fail) through JUnit's EngineTestKit, and says how each test ended.
 */
final class Graded {
    /** The configuration parameter that enables the graded tests. */
    static final String ENABLED = "retry-audit.graded";

    private Graded() {
    }

    /** Whether the graded tests run: only when {@link #run} runs them. */
    static boolean enabled(ExtensionContext context) {
        return context.getConfigurationParameter(ENABLED).map(Boolean::parseBoolean).orElse(false);
    }

    /**
     * Runs {@code method} of {@code graded} (its name and parameter types: {@code fixedWait(java.lang.String)})
     * and gives, by test (the scenario's id for a suite's call, the method's
     * name for a single test or a test template that could not run), how it ended: {@code passed}, or {@code failed: } or {@code skipped: } and the message.
     */
    static Map<String, String> run(Class<?> graded, String method) {
        Map<String, String> ended = new LinkedHashMap<>();
        for (Event e : EngineTestKit.engine("junit-jupiter").configurationParameter(ENABLED, "true")
                .selectors(selectMethod(graded.getName() + "#" + method)).execute().allEvents().finished().list()) {
            TestExecutionResult result = e.getPayload(TestExecutionResult.class).orElseThrow();
            if (e.getTestDescriptor().isContainer() && result.getStatus() == TestExecutionResult.Status.SUCCESSFUL) {
                continue;
            }
            String name = e.getTestDescriptor().getDisplayName().split("[:(]", 2)[0];
            ended.put(name, switch (result.getStatus()) {
                case SUCCESSFUL -> "passed";
                case FAILED -> "failed: " + result.getThrowable().map(Throwable::getMessage).orElse("");
                case ABORTED -> "skipped: " + result.getThrowable().map(Throwable::getMessage).orElse("");
            });
        }
        return ended;
    }
}

package dev.retryaudit.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The CI gate's recipe for JVM users as {@code docs/serve.md} writes it, with the real OpenTelemetry Java agent:
 * {@code serve --format json -- java -javaagent:opentelemetry-javaagent.jar ...}. The wrapped JVM takes its
 * exporter, protocol and header capture from the environment {@code serve} sets and starts late
 * ({@link RecipeGate}): a retry 200 ms after a 503 with {@code Retry-After: 2} fails the gate, one after the 2 s
 * passes it.
 */
class ServeJavaAgentIT {
    private static final Path AGENT = Path.of("target/otel-javaagent/opentelemetry-javaagent.jar");

    @Test
    void aLateStartingJvmThatRetriesBeforeRetryAfterFailsTheGate() throws Exception {
        run("early").failedOnTheEarlyRetry();
    }

    @Test
    void aLateStartingJvmThatHonoursRetryAfterPassesTheGate() throws Exception {
        run("honour").passedTheHonouredRetry();
    }

    private static RecipeGate run(String mode) throws Exception {
        assertThat(AGENT).as("the Java agent, copied by the build").exists();
        return RecipeGate.run(mode, (url, m) -> List.of(RecipeGate.java(), "-javaagent:" + AGENT,
                "-Dotel.service.name=stock-client", "-Dotel.javaagent.logging=none",
                "-cp", Path.of("target/test-classes").toAbsolutePath().toString(), AgentRecipeClient.class.getName(),
                url, m, Long.toString(RecipeGate.LATE_START_MS)));
    }
}

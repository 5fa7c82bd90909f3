package dev.retryaudit.serve;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The CI gate's recipe for Node as {@code docs/serve.md} writes it, with the OpenTelemetry Node SDK and its HTTP
 * instrumentation ({@code src/test/node/serve-recipe}, installed from its lock by {@code .ci/run}):
 * {@code serve --format json -- node --require ./tracing.cjs client.cjs ...}. The program starts late
 * ({@link RecipeGate}): a retry 200 ms after a 503 with {@code Retry-After: 2} fails the gate, one after the 2 s
 * passes it. Skipped, with the reason, where {@code node} or the installed packages are missing.
 */
class ServeNodeRecipeIT {
    private static final Path RECIPE = Path.of("src/test/node/serve-recipe").toAbsolutePath();

    @Test
    void aLateStartingNodeProgramThatRetriesBeforeRetryAfterFailsTheGate() throws Exception {
        run("early").failedOnTheEarlyRetry();
    }

    @Test
    void aLateStartingNodeProgramThatHonoursRetryAfterPassesTheGate() throws Exception {
        run("honour").passedTheHonouredRetry();
    }

    private static RecipeGate run(String mode) throws Exception {
        assumeTrue(Files.isDirectory(RECIPE.resolve("node_modules/@opentelemetry/sdk-node")),
                "the Node recipe's packages are not installed: npm ci --prefix src/test/node/serve-recipe");
        assumeTrue(onPath("node"), "node is not on the PATH");
        return RecipeGate.run(mode, (url, m) -> List.of("node", "--require", RECIPE.resolve("tracing.cjs").toString(),
                RECIPE.resolve("client.cjs").toString(), url, m, Long.toString(RecipeGate.LATE_START_MS)));
    }

    private static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }
}

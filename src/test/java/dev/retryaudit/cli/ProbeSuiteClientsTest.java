package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * The suites as a regression matrix of real clients: {@code probe --suite http} against curl, wget and
 * urllib3, and {@code probe --suite otlp} against the OpenTelemetry Java SDK's OTLP/HTTP exporter (a test
 * dependency, run in a JVM of its own) and the Node SDK's (when {@code node} and the npm packages are
 * there: {@code RETRY_AUDIT_NODE_MODULES} names their {@code node_modules}). Each scorecard's verdicts and
 * deciding rules must be the client's expected scorecard ({@code src/test/resources/probe-suite/expected});
 * the assertions are on verdicts, never on timings. A machine without a client skips that client's test,
 * saying so. The runs take a minute or two each and run concurrently.
 */
@Tag("real-clients")
@Execution(ExecutionMode.CONCURRENT)
class ProbeSuiteClientsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void curlHttpSuite() throws Exception {
        needs("curl", "--version");
        assertScorecard("curl-http", "http", "curl", "-sS", "--retry", "5", "{url}");
    }

    @Test
    void wgetHttpSuite() throws Exception {
        needs("wget", "--version");
        assertScorecard("wget-http", "http", "wget", "-q", "-O", "-", "--retry-on-http-error=429,503", "--tries=5",
                "{url}");
    }

    @Test
    void urllib3HttpSuite() throws Exception {
        String python = List.of("/usr/bin/python3", "python3").stream().filter(p -> runs(p, "-c", "import urllib3"))
                .findFirst().orElse(null);
        assumeTrue(python != null, "no python3 with urllib3 is installed: skipping its probe suite test");
        assertScorecard("urllib3-http", "http", python, resource("/probe-clients/urllib3_get.py"), "respect");
    }

    @Test
    void openTelemetryJavaExporterOtlpSuite() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        assertScorecard("otel-java-otlp", "otlp", java, "-cp", System.getProperty("java.class.path"),
                "dev.retryaudit.probe.suite.OtlpExportClient");
    }

    @Test
    void openTelemetryNodeExporterOtlpSuite() throws Exception {
        needs("node", "--version");
        String modules = Objects.requireNonNullElse(System.getenv("RETRY_AUDIT_NODE_MODULES"), "src/test/node/otlp-exporter/node_modules");
        assumeTrue(Files.isDirectory(Path.of(modules, "@opentelemetry", "exporter-trace-otlp-http")),
                "no @opentelemetry/exporter-trace-otlp-http under " + modules + " (set RETRY_AUDIT_NODE_MODULES):"
                        + " skipping the Node SDK's probe suite test");
        assertScorecard("otel-node-otlp", "otlp", "env", "NODE_PATH=" + Path.of(modules).toAbsolutePath(), "node",
                resource("/probe-clients/otlp_export.js"));
    }

    /** Runs {@code suite} against {@code command} and compares its rows with the expected scorecard {@code name}. */
    private static void assertScorecard(String name, String suite, String... command) throws Exception {
        List<String> args = new ArrayList<>(List.of("probe", "--suite", suite, "--scorecard", "json", "--"));
        args.addAll(List.of(command));
        CliRunner.Result r = CliRunner.run(args.toArray(String[]::new));
        JsonNode card = JSON.readTree(r.out());
        List<String> rows = new ArrayList<>();
        for (JsonNode row : card.get("scenarios")) {
            rows.add(row.get("id").asText() + " " + row.get("verdict").asText() + " "
                    + (row.get("rule").isNull() ? "-" : row.get("rule").asText()));
        }
        List<String> expected = Files.readAllLines(Path.of("src/test/resources/probe-suite/expected", name + ".txt"),
                StandardCharsets.UTF_8).stream().filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
        assertThat(rows).as(card.toPrettyString()).containsExactlyElementsOf(expected);
        assertThat(r.exit()).isEqualTo(card.get("passed").asBoolean() ? 0 : 2);
    }

    private static String resource(String name) throws Exception {
        return Path.of(ProbeSuiteClientsTest.class.getResource(name).toURI()).toString();
    }

    private static void needs(String client, String... args) {
        List<String> command = new ArrayList<>(List.of(client));
        command.addAll(List.of(args));
        assumeTrue(runs(command.toArray(String[]::new)), client + " is not installed: skipping its probe suite test");
    }

    private static boolean runs(String... command) {
        try {
            return ProbeClientsTest.runs(command);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}

package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GitHub Action's steps (action/run.sh) run as GitHub runs them: the variables it sets
 * (GITHUB_ACTION_PATH, RUNNER_TEMP, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY) point at temporary files, and the
 * outputs, the summary and the SARIF log they hold are checked. The jar comes from the cache directory,
 * where this test puts one that runs the classes under test.
 */
class ActionScriptTest {
    private static final Path SCRIPT = Path.of("action/run.sh").toAbsolutePath();

    @TempDir
    Path tmp;

    private Path output;
    private Path summary;
    private Path temp;

    @BeforeEach
    void runner() throws IOException {
        output = Files.createFile(tmp.resolve("github-output"));
        summary = Files.createFile(tmp.resolve("step-summary.md"));
        temp = Files.createDirectories(tmp.resolve("runner-temp"));
    }

    /** A jar in the cache, named as run.sh names this version's, whose manifest runs the test's class path. */
    private void cachedJar(String version) throws IOException {
        Path cache = Files.createDirectories(temp.resolve("retry-audit-jar"));
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "dev.retryaudit.cli.Main");
        m.getMainAttributes().put(Attributes.Name.CLASS_PATH, List.of(System.getProperty("java.class.path")
                .split(File.pathSeparator)).stream().map(p -> Path.of(p).toUri().toString()).collect(Collectors.joining(" ")));
        try (OutputStream out = Files.newOutputStream(cache.resolve("retry-audit-" + version + ".jar"));
                JarOutputStream jar = new JarOutputStream(out, m)) {
            jar.flush();
        }
    }

    private int run(String command, Map<String, String> inputs) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", SCRIPT.toString(), command).redirectErrorStream(true)
                .redirectOutput(tmp.resolve("log").toFile());
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("INPUT_") || k.startsWith("GITHUB_") || k.startsWith("RETRY_AUDIT"));
        env.put("GITHUB_ACTION_PATH", Path.of("").toAbsolutePath().toString());
        env.put("RUNNER_TEMP", temp.toString());
        env.put("GITHUB_OUTPUT", output.toString());
        env.put("GITHUB_STEP_SUMMARY", summary.toString());
        env.putAll(inputs);
        Process p = pb.start();
        assertThat(p.waitFor(300, TimeUnit.SECONDS)).isTrue();
        return p.exitValue();
    }

    private Map<String, String> outputs() throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : Files.readAllLines(output)) {
            int eq = line.indexOf('=');
            out.put(line.substring(0, eq), line.substring(eq + 1));
        }
        return out;
    }

    private String version() throws IOException, InterruptedException {
        assertThat(run("locate", Map.of())).isZero();
        return outputs().get("version");
    }

    @Test
    void locateGivesThePomsVersionAndTheCacheDirectory() throws IOException, InterruptedException {
        assertThat(run("locate", Map.of())).isZero();
        String pom = Files.readString(Path.of("pom.xml"));
        String expected = pom.substring(pom.indexOf("<version>", pom.indexOf("<artifactId>retry-audit</artifactId>")) + 9);
        assertThat(outputs()).containsExactly(Map.entry("version", expected.substring(0, expected.indexOf('<'))),
                Map.entry("cache-dir", temp.resolve("retry-audit-jar").toString()));
    }

    @Test
    void findingsGiveExitTwoTheCountsTheSummaryAndTheSarifLog() throws IOException, InterruptedException {
        cachedJar(version());
        Files.writeString(output, "");
        // Paths on lines of their own, a pattern among them, as a YAML block gives them.
        assertThat(run("audit", Map.of("INPUT_PATHS", "examples/traces/gap*.jsonl\n"))).as(log()).isZero();
        Map<String, String> out = outputs();
        assertThat(out).containsEntry("exit-code", "2").containsEntry("findings", "3").containsEntry("errors", "3")
                .containsEntry("sarif-file", temp.resolve("retry-audit/report.sarif").toString())
                .containsEntry("report-file", temp.resolve("retry-audit/report.sarif").toString());
        JsonNode sarif = new ObjectMapper().readTree(Path.of(out.get("sarif-file")).toFile());
        assertThat(sarif.get("runs").get(0).get("results")).hasSize(3);
        assertThat(Files.readString(summary)).startsWith("## retry-audit: failed\n")
                .contains("| 2 | 4 | 2 | 3 | 0 | 0 | **failed** (`--fail-on error`) |", "#### trace/attempt-sequence (2 findings)");
    }

    @Test
    void aCleanAuditInAnotherFormatStillUploadsSarif() throws IOException, InterruptedException {
        cachedJar(version());
        Files.writeString(output, "");
        assertThat(run("audit", Map.of("INPUT_PATHS", "examples/checkout-operations.json", "INPUT_FORMAT", "json",
                "INPUT_FAIL_ON", "warning"))).as(log()).isZero();
        Map<String, String> out = outputs();
        assertThat(out).containsEntry("exit-code", "0").containsEntry("findings", "0").containsEntry("errors", "0")
                .containsEntry("report-file", temp.resolve("retry-audit/report.json").toString())
                .containsEntry("sarif-file", temp.resolve("retry-audit/report.sarif").toString());
        assertThat(new ObjectMapper().readTree(Path.of(out.get("report-file")).toFile()).get("summary")
                .get("passed").asBoolean()).isTrue();
        assertThat(Files.readString(summary)).startsWith("## retry-audit: passed\n").contains("No findings.");
    }

    @Test
    void anInputOfNothingFailsWith65AndSaysWhyInTheSummary() throws IOException, InterruptedException {
        cachedJar(version());
        Files.writeString(output, "");
        Path empty = Files.writeString(tmp.resolve("empty.json"), "{\"resourceSpans\":[]}", StandardCharsets.UTF_8);
        assertThat(run("audit", Map.of("INPUT_PATHS", empty.toString(), "INPUT_UPLOAD_SARIF", "true"))).as(log()).isZero();
        Map<String, String> out = outputs();
        assertThat(out).containsEntry("exit-code", "65").containsEntry("findings", "").containsEntry("errors", "");
        assertThat(Files.readString(summary)).startsWith("## retry-audit: input rejected (exit 65)")
                .contains("nothing was audited");
        JsonNode sarif = new ObjectMapper().readTree(Path.of(out.get("sarif-file")).toFile());
        assertThat(sarif.get("runs").get(0).get("invocations").get(0).get("executionSuccessful").asBoolean()).isFalse();
    }

    @Test
    void theActionWiresTheScriptAndItsInputs() throws IOException {
        String action = Files.readString(Path.of("action.yml"));
        assertThat(action).contains("using: composite", "uses: actions/setup-java@v4", "uses: actions/cache@v4",
                "\"$GITHUB_ACTION_PATH/action/run.sh\" locate", "\"$GITHUB_ACTION_PATH/action/run.sh\" audit",
                "uses: github/codeql-action/upload-sarif@v4", "INPUT_TOOLS: ${{ inputs.tools }}",
                "value: ${{ steps.audit.outputs.exit-code }}", "exit \"$CODE\"");
        for (String input : List.of("paths", "format", "fail-on", "policy", "baseline", "tools", "upload-sarif",
                "java-version")) {
            assertThat(action).contains("\n  " + input + ":\n");
        }
        assertThat(Files.readString(Path.of("docs/ci.md"))).contains("uses: retry-audit/retry-audit@v1");
    }

    private String log() throws IOException {
        Path log = tmp.resolve("log");
        return Files.exists(log) ? Files.readString(log) : "";
    }
}

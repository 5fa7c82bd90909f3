package dev.retryaudit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * A large audit of a bare {@code java -jar} runs in a JVM with the launcher's settings: the same bytes
 * on stdout and stderr and the same exit code as in one JVM, and stopping the command stops it. So does
 * {@code serve}, whose SIGTERM ends the run it started with the audit's exit code, and which ends its run
 * itself if the command that started it is killed.
 */
class TunedJvmIT {
    private static final Path JAR = Path.of("target/retry-audit.jar");
    private static final String DEBUG_LINE = "retry-audit: debug: the audit runs in a JVM of its own: ";

    @TempDir
    static Path dir;
    /** About 6 MiB of spans: the checkout example's operations again and again, each copy with ids of its own. */
    private static Path large;

    @BeforeAll
    static void writeALargeInput() throws IOException {
        List<String> example = Files.readAllLines(Path.of("examples/checkout-spans.jsonl"));
        StringBuilder out = new StringBuilder();
        for (int n = 0; out.length() < 6 << 20; n++) {
            for (String line : example) {
                out.append(line.replace("\"operation_id\":\"", "\"operation_id\":\"" + n + "-")
                        .replace("\"idempotency_key\":\"", "\"idempotency_key\":\"" + n + "-")
                        .replace("\"span_id\":\"", "\"span_id\":\"" + n + "-")).append('\n');
            }
        }
        large = Files.writeString(dir.resolve("large-spans.jsonl"), out);
    }

    private static ProcessBuilder java(Map<String, String> env, List<String> jvmOptions, String... args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(jvmOptions);
        cmd.add("-jar");
        cmd.add(JAR.toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        for (String v : List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS", "RETRY_AUDIT_RELAUNCH")) {
            pb.environment().remove(v);
        }
        pb.environment().putAll(env);
        return pb;
    }

    private static JarIT.Run run(Map<String, String> env, String... args) throws Exception {
        return JarIT.exec(java(env, List.of(), args), new byte[0]);
    }

    @Test
    void printsTheSameBytesWithTheSameExitCodeAsOneJvm() throws Exception {
        JarIT.Run one = run(Map.of("RETRY_AUDIT_RELAUNCH", "off"), "audit", "--format", "text", large.toString());
        JarIT.Run tuned = run(Map.of(), "audit", "--format", "text", large.toString());
        assertThat(one.exit()).isEqualTo(2);
        assertThat(one.out()).contains("cart-c-1844");
        assertThat(tuned).isEqualTo(one);

        JarIT.Run debug = run(Map.of(), "audit", "--debug", "--format", "text", large.toString());
        assertThat(debug.err()).startsWith(DEBUG_LINE).contains("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
        assertThat(debug.out()).isEqualTo(one.out());
        assertThat(debug.exit()).isEqualTo(2);
    }

    @Test
    void aRejectedInputGivesTheSameOneLineError() throws Exception {
        Path bad = dir.resolve("bad.jsonl");
        Files.copy(large, bad);
        Files.writeString(bad, "{\"operation_id\": \"x\", \"attempt_id\": \"one\"}\n", java.nio.file.StandardOpenOption.APPEND);
        JarIT.Run one = run(Map.of("RETRY_AUDIT_RELAUNCH", "off"), "audit", bad.toString());
        JarIT.Run tuned = run(Map.of(), "audit", bad.toString());
        assertThat(one.exit()).isEqualTo(65);
        assertThat(one.err()).contains("bad.jsonl:").doesNotContain("\tat ");
        assertThat(tuned).isEqualTo(one);
    }

    @Test
    void standardInputASmallFileAndChosenJvmOptionsStayInOneJvm() throws Exception {
        byte[] spans = Files.readAllBytes(large);
        JarIT.Run stdin = JarIT.exec(java(Map.of(), List.of(), "audit", "--debug", "--format", "text", "-"), spans);
        assertThat(stdin.exit()).isEqualTo(2);
        assertThat(stdin.err()).doesNotContain(DEBUG_LINE);
        JarIT.Run small = run(Map.of(), "audit", "--debug", "examples/checkout-spans.jsonl");
        assertThat(small.exit()).isEqualTo(2);
        assertThat(small.err()).doesNotContain(DEBUG_LINE);
        JarIT.Run chosen = JarIT.exec(java(Map.of(), List.of("-Xmx512m"), "audit", "--debug", large.toString()), new byte[0]);
        assertThat(chosen.exit()).isEqualTo(2);
        assertThat(chosen.err()).doesNotContain(DEBUG_LINE);
        JarIT.Run off = run(Map.of("RETRY_AUDIT_RELAUNCH", "off"), "audit", "--debug", large.toString());
        assertThat(off.err()).doesNotContain(DEBUG_LINE);
    }

    @Test
    @DisabledOnOs(OS.WINDOWS)
    void stoppingTheCommandStopsTheJvmItStarted() throws Exception {
        // The audit reads the large file, then waits on a named pipe that nobody writes.
        Path fifo = dir.resolve("never-written");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        Process parent = java(Map.of(), List.of(), "audit", large.toString(), fifo.toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        Optional<ProcessHandle> child = Optional.empty();
        try {
            for (int i = 0; i < 600 && child.isEmpty(); i++) {
                child = parent.toHandle().children().findFirst();
                Thread.sleep(50);
            }
            assertThat(child).as("the JVM of its own").isPresent();
            assertThat(child.get().info().arguments().orElse(new String[0])).contains("-XX:+UseSerialGC");
            parent.destroy();
            assertThat(parent.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(parent.exitValue()).isEqualTo(143);
            assertThat(child.get().onExit().get(30, TimeUnit.SECONDS).isAlive()).isFalse();
        } finally {
            parent.destroyForcibly();
            child.ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    /** Starts a bare {@code serve} writing findings to {@code findings}; returns it once it listens, with its traces URL. */
    private static Process serve(Path findings, String[] url) throws IOException {
        Process parent = java(Map.of(), List.of(), "serve", "--listen", "127.0.0.1:0", "--output", findings.toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String first = new java.io.BufferedReader(new java.io.InputStreamReader(parent.getErrorStream(),
                java.nio.charset.StandardCharsets.UTF_8)).readLine();
        assertThat(first).startsWith("retry-audit: listening on http://127.0.0.1:");
        url[0] = first.replaceFirst("^retry-audit: listening on (http://[^ ]+) .*$", "$1") + "/v1/traces";
        return parent;
    }

    /** Posts the agent's checkout export, whose audit finds a keyless write sent again after a timeout. */
    private static void postCheckout(String url) throws Exception {
        java.net.http.HttpResponse<String> answer = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create(url)).header("Content-Type", "application/json")
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofFile(
                                Path.of("src/test/resources/input/otlp/agent-checkout.json"))).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).isEqualTo(200);
    }

    @Test
    @DisabledOnOs(OS.WINDOWS)
    void serveRunsInAJvmOfItsOwnThatTheSignalEndsWithTheAuditsExitCode() throws Exception {
        Path findings = dir.resolve("serve-findings.jsonl");
        String[] url = new String[1];
        Process parent = serve(findings, url);
        try {
            ProcessHandle child = parent.toHandle().children().findFirst().orElseThrow();
            assertThat(child.info().arguments().orElse(new String[0])).contains("-XX:+UseSerialGC", "-Xms48m");
            postCheckout(url[0]);
            parent.destroy();
            assertThat(parent.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(parent.exitValue()).as("the audit's exit code, not the signal's").isEqualTo(2);
            assertThat(Files.readString(findings)).contains("\"rule\":\"timeout-replay/unreconciled\"");
            assertThat(child.onExit().get(30, TimeUnit.SECONDS).isAlive()).isFalse();
        } finally {
            parent.destroyForcibly();
        }
    }

    @Test
    @DisabledOnOs(OS.WINDOWS)
    void serveEndsItsRunWhenTheCommandThatStartedItIsKilled() throws Exception {
        Path findings = dir.resolve("orphan-findings.jsonl");
        String[] url = new String[1];
        Process parent = serve(findings, url);
        ProcessHandle child = parent.toHandle().children().findFirst().orElseThrow();
        try {
            postCheckout(url[0]);
            parent.destroyForcibly();
            // No one reads its exit code any more: it audits what it holds, writes the findings and ends.
            assertThat(child.onExit().get(60, TimeUnit.SECONDS).isAlive()).isFalse();
            assertThat(Files.readString(findings)).contains("\"rule\":\"timeout-replay/unreconciled\"");
        } finally {
            child.destroyForcibly();
        }
    }
}

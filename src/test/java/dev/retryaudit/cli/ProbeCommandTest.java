package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ProbeCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--status|404|invalid value for option '--status': expected 429 or 503",
        "--failures|0|invalid value for option '--failures': must be between 1 and 10",
        "--failures|11|invalid value for option '--failures': must be between 1 and 10",
        "--delay|-1|invalid value for option '--delay': must be between 0 and 600",
        "--delay|601|invalid value for option '--delay': must be between 0 and 600",
        "--header-format|date|invalid value for option '--header-format': expected one of seconds, http-date",
        "--max-requests|2|invalid value for option '--max-requests': must be between 3 and 10000 (more than --failures)",
        "--max-requests|10001|invalid value for option '--max-requests': must be between 3 and 10000 (more than --failures)",
        "--timeout|0|invalid value for option '--timeout': must be between 1 and 86400",
        "--port|65536|invalid value for option '--port': must be between 0 and 65535",
        "--format|xml|invalid value for option '--format': expected one of json, text, sarif, github",
        "--color|sometimes|invalid value for option '--color': expected one of auto, always, never",
        "--fail-on|fatal|invalid value for option '--fail-on': expected one of error, warning, note, never",
        "--enable|retry-afte|unknown rule or family for option '--enable'",
        "--failures|two|Invalid value for option '--failures': 'two' is not an int",
    })
    void outOfRangeValuesAreUsageErrors(String option, String value, String message) {
        CliRunner.Result r = CliRunner.run("probe", option, value, "--", "true");

        assertThat(r.exit()).isEqualTo(64);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith("retry-audit: error: " + message).endsWith("Try 'retry-audit --help'\n");
    }

    @Test
    void aCommandThatCannotBeStartedIsAUsageError() {
        CliRunner.Result r = CliRunner.run("probe", "--", "/nonexistent/retry-audit-client", "{url}");

        assertThat(r.exit()).isEqualTo(64);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).contains("retry-audit: error: cannot run /nonexistent/retry-audit-client: ");
    }

    @Test
    void aBadPolicyIsRejectedBeforeTheClientRuns() throws IOException {
        Path policy = dir.resolve("policy.json");
        Path marker = dir.resolve("ran");
        Files.writeString(policy, "{\"version\": 1, \"max_attempt\": 3}");

        CliRunner.Result bad = CliRunner.run("probe", "--policy", policy.toString(), "--", "touch", marker.toString());
        CliRunner.Result missing = CliRunner.run("probe", "--policy", dir.resolve("none.json").toString(),
                "--", "touch", marker.toString());

        assertThat(bad.exit()).isEqualTo(65);
        assertThat(bad.err()).startsWith(policy + ":1:16: error: $.max_attempt: unknown field (did you mean max_attempts?)");
        assertThat(JSON.readTree(bad.out()).get("error").get("code").asInt()).isEqualTo(65);
        assertThat(missing.exit()).isEqualTo(66);
        assertThat(marker).doesNotExist();
    }

    @Test
    void aBusyPortIsAUsageError() throws IOException {
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            CliRunner.Result r = CliRunner.run("probe", "--port", Integer.toString(busy.getLocalPort()), "--", "true");

            assertThat(r.exit()).isEqualTo(64);
            assertThat(r.err()).startsWith("retry-audit: error: cannot listen on 127.0.0.1:" + busy.getLocalPort());
        }
    }

    @Test
    void aTraceOutThatCannotBeWrittenExits74BeforeTheClientRuns()
            throws IOException {
        Path marker = dir.resolve("ran");
        String missing = dir.resolve("no-such-dir").resolve("trace.json").toString();

        CliRunner.Result r = CliRunner.run("probe", "--trace-out", missing, "--", "touch", marker.toString());

        assertThat(r.exit()).isEqualTo(74);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("retry-audit: error: cannot write the trace to " + missing + ": no such directory\n");
        assertThat(marker).doesNotExist();
    }

    @Test
    void traceOutToStdoutIsAUsageError() {
        CliRunner.Result r = CliRunner.run("probe", "--trace-out", "-", "--", "true");

        assertThat(r.exit()).isEqualTo(64);
        assertThat(r.err()).startsWith("retry-audit: error: --trace-out names a file; the report itself goes to standard output\n");
    }

    @Test
    void theReportCanGoToAFile() throws IOException {
        Path out = dir.resolve("report.json");

        CliRunner.Result r = CliRunner.run("probe", "--output", out.toString(), "--timeout", "5", "--", "true");

        assertThat(r.exit()).isZero();
        assertThat(r.out()).isEmpty();
        assertThat(JSON.readTree(out.toFile()).get("probe").get("exit_code").asInt()).isZero();
    }

    @ParameterizedTest
    @CsvSource({"text", "github"})
    void theLineFormatsSayWhatTheProbeSawBeforeTheirVerdict(String format) {
        CliRunner.Result r = CliRunner.run("probe", "--format", format, "--color", "never", "--timeout", "5",
                "--", "true");

        assertThat(r.exit()).isZero();
        assertThat(r.out()).endsWith("retry-audit: probe: the client exited with code 0: 0 GETs, did not reach success\n"
                + "retry-audit: 0 operations, 0 attempts, 0 retries; 0 errors, 0 warnings, 0 notes; passed (--fail-on error)\n");
    }

    @Test
    void sarifCarriesTheProbeLineAsANotification() throws Exception {
        CliRunner.Result r = CliRunner.run("probe", "--format", "sarif", "--timeout", "5", "--", "true");

        assertThat(r.exit()).isZero();
        JsonNode note = JSON.readTree(r.out()).get("runs").get(0).get("invocations").get(0)
                .get("toolExecutionNotifications").get(0);
        assertThat(note.get("level").asText()).isEqualTo("note");
        assertThat(note.get("message").get("text").asText())
                .isEqualTo("retry-audit: probe: the client exited with code 0: 0 GETs, did not reach success");
    }

    @Test
    void helpDescribesTheOptionsAndTheExitCodes() {
        CliRunner.Result r = CliRunner.run("probe", "--help");

        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("Usage: retry-audit probe", "--status=STATUS", "--failures=N", "--delay=SECONDS",
                "--header-format=FORMAT", "seconds, http-date", "--max-requests=N", "--timeout=SECONDS", "--port=PORT",
                "--trace-out=FILE", "--format=FORMAT", "--fail-on=SEVERITY", "--enable=RULE", "RETRY_AUDIT_PROBE_URL",
                "{url}", "Exit codes:");
        for (ExitCode c : ExitCode.values()) {
            assertThat(r.out()).contains(String.format("%3d", c.code()) + "   " + c.meaning().substring(0, 20));
        }
    }

    @Test
    void theTopLevelHelpListsProbe() {
        assertThat(CliRunner.run("--help").out()).contains("probe");
    }

    @Test
    void optionsAfterTheCommandBelongToTheCommand() throws Exception {
        CliRunner.Result r = CliRunner.run("probe", "--timeout", "5", "sh", "-c", "exit 3", "--failures", "99");

        assertThat(r.exit()).isZero();
        JsonNode probe = JSON.readTree(r.out()).get("probe");
        assertThat(probe.get("command").toString()).isEqualTo("[\"sh\",\"-c\",\"exit 3\",\"--failures\",\"99\"]");
        assertThat(probe.get("exit_code").asInt()).isEqualTo(3);
        assertThat(probe.get("attempts").asInt()).isZero();
        assertThat(probe.get("honoured_retry_after").isNull()).isTrue();
        assertThat(r.err()).contains("retry-audit: probe: the client exited with code 3: 0 GETs, did not reach success\n",
                "warning: no request reached http://127.0.0.1:");
    }

    @Test
    void withoutACommandItServesUntilTheTimeoutThenReports() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        String url = "http://127.0.0.1:" + port + "/retry-after-probe";
        CompletableFuture<List<Integer>> client = CompletableFuture.supplyAsync(() -> callTwice(url));

        CliRunner.Result r = CliRunner.run("probe", "--port", Integer.toString(port), "--timeout", "2",
                "--failures", "1", "--delay", "0");

        assertThat(client.get()).containsExactly(429, 200);
        assertThat(r.exit()).isZero();
        assertThat(r.err()).isEqualTo("retry-audit: probe: serving " + url + " for 2 s\n"
                + "retry-audit: probe: served for 2 s: 2 GETs, reached success, honoured Retry-After\n");
        JsonNode report = JSON.readTree(r.out());
        JsonNode probe = report.get("probe");
        assertThat(probe.get("url").asText()).isEqualTo(url);
        assertThat(probe.get("command").size()).isZero();
        assertThat(probe.get("exit_code").isNull()).isTrue();
        assertThat(probe.get("timed_out").asBoolean()).isFalse();
        assertThat(probe.get("attempts").asInt()).isEqualTo(2);
        assertThat(probe.get("reached_success").asBoolean()).isTrue();
        assertThat(report.get("inputs").get(0).get("source").asText()).isEqualTo("<probe>");
        assertThat(report.get("inputs").get(0).get("format").asText()).isEqualTo("retry-trace");
    }

    /** Calls the probe until it answers twice, for at most five seconds. */
    private static List<Integer> callTwice(String url) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        List<Integer> statuses = new ArrayList<>();
        long end = System.nanoTime() + 5_000_000_000L;
        while (statuses.size() < 2 && System.nanoTime() < end) {
            try {
                statuses.add(http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(1)).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode());
            } catch (IOException e) {
                sleep();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return statuses;
    }

    private static void sleep() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

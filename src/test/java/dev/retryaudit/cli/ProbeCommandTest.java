package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.retryaudit.api.ExitCode;
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
import org.junit.jupiter.api.Tag;
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
        "--status|404|invalid value for option '--status': expected 429, 503 or 422",
        "--failures|0|invalid value for option '--failures': must be between 1 and 10",
        "--failures|11|invalid value for option '--failures': must be between 1 and 10",
        "--delay|-1|invalid value for option '--delay': must be between 0 and 600",
        "--delay|601|invalid value for option '--delay': must be between 0 and 600",
        "--delay|3,,4|invalid value for option '--delay': expected whole seconds separated by commas, such as 3,1,4",
        "--delay|1.5|invalid value for option '--delay': expected whole seconds separated by commas, such as 3,1,4",
        "--delay|1,2,3,4,5,6,7,8,9,10,11|invalid value for option '--delay': at most 10 delays",
        "--stall|601|invalid value for option '--stall': must be between 0 and 600",
        "--method|GE T|invalid value for option '--method': expected an HTTP method such as GET or POST",
        "--key-header|Idempotency Key|invalid value for option '--key-header': expected a header name such as Idempotency-Key",
        "--header-format|date|invalid value for option '--header-format': expected one of seconds, http-date, "
                + "retry-after-ms, retry-after-ms-and-seconds",
        "--max-requests|3|invalid value for option '--max-requests': must be between 4 and 10000 (more than --failures)",
        "--max-requests|10001|invalid value for option '--max-requests': must be between 4 and 10000 (more than --failures)",
        "--timeout|0|invalid value for option '--timeout': must be between 1 and 86400",
        "--port|65536|invalid value for option '--port': must be between 0 and 65535",
        "--format|xml|invalid value for option '--format': expected one of json, text, sarif, github",
        "--color|sometimes|invalid value for option '--color': expected one of auto, always, never",
        "--fail-on|fatal|invalid value for option '--fail-on': expected one of error, warning, note, never",
        "--enable|retry-afte|unknown rule or family: retry-afte (did you mean retry-after, retry-after/early, retry-after/invalid?)",
        "--failures|two|Invalid value for option '--failures': 'two' is not an int",
    })
    void outOfRangeValuesAreUsageErrorsThatPointAtTheProbesHelp(String option, String value, String message) {
        CliRunner.Result r = CliRunner.run("probe", option, value, "--", "true");

        assertThat(r.exit()).isEqualTo(64);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith("retry-audit: error: " + message).endsWith("Try 'retry-audit probe --help'\n");
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
    void aClientThatNeverCallsIsNotTestedInTheReportFileToo() throws IOException {
        Path out = dir.resolve("report.json");

        CliRunner.Result r = CliRunner.run("probe", "--output", out.toString(), "--timeout", "5", "--", "true");

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        JsonNode report = JSON.readTree(out.toFile());
        JsonNode probe = report.get("probe");
        assertThat(probe.get("exit_code").asInt()).isZero();
        assertThat(probe.get("timed_out").asBoolean()).isFalse();
        assertThat(probe.get("verdict").asText()).isEqualTo("not_tested");
        assertThat(probe.get("verdict_reason").asText()).startsWith("the client exited with code 0 without calling http://127.0.0.1:");
        assertThat(probe.get("requests")).isEmpty();
        JsonNode finding = report.get("findings").get(0);
        assertThat(finding.get("rule").asText()).isEqualTo("probe/not-tested");
        assertThat(finding.get("message").asText()).startsWith("nothing was tested: the client exited with code 0");
        assertThat(report.get("summary").get("passed").asBoolean()).isFalse();
    }

    @ParameterizedTest
    @CsvSource({"text", "github"})
    void theLineFormatsSayWhatTheProbeSawAndWhyNothingWasTestedWithoutAPseudoFile(String format) {
        CliRunner.Result r = CliRunner.run("probe", "--format", format, "--color", "never", "--timeout", "5",
                "--", "sh", "-c", "exit 3");

        assertThat(r.exit()).isEqualTo(2);
        String why = "the client exited with code 3 before any request reached http://127.0.0.1:";
        assertThat(r.out()).contains(why).doesNotContain("<probe>")
                .contains("retry-audit: probe: the client exited with code 3: 0 GETs, did not reach success; not tested: "
                        + why)
                .endsWith("retry-audit: 0 operations, 0 attempts, 0 retries; 1 error, 0 warnings, 0 notes;"
                        + " failed (--fail-on error)\n");
        assertThat(r.out()).startsWith(format.equals("text") ? "probe: error: nothing was tested: " + why
                : "::error title=probe/not-tested::nothing was tested: " + why);
    }

    @Test
    void requestsThatNeverArriveWholeAreNotAttemptsAndEveryFormatCountsThem() throws Exception {
        // three connections each send a request line and headers but never the blank line that ends them
        String client = "import os, socket, urllib.parse\n"
                + "u = urllib.parse.urlsplit(os.environ['RETRY_AUDIT_PROBE_URL'])\n"
                + "for i in range(3):\n"
                + "    s = socket.create_connection((u.hostname, u.port))\n"
                + "    s.sendall(b'GET ' + u.path.encode() + b' HTTP/1.1\\r\\nHost: probe\\r\\n')\n"
                + "    s.shutdown(socket.SHUT_WR)\n"
                + "    s.recv(1)\n"
                + "    s.close()\n";
        String why = "the client exited with code 0 after only 3 unfinished request(s) (cut off, timed out, or a"
                + " protocol other than plain HTTP?)";
        String line = "retry-audit: probe: the client exited with code 0: 0 GETs, 3 requests that never arrived whole"
                + " (not attempts), did not reach success; not tested: " + why;

        CliRunner.Result json = CliRunner.run("probe", "--timeout", "20", "--", "python3", "-c", client);
        assertThat(json.exit()).isEqualTo(2);
        JsonNode probe = JSON.readTree(json.out()).get("probe");
        assertThat(probe.get("attempts").asInt()).isZero();
        assertThat(probe.get("unfinished_requests").asInt()).isEqualTo(3);
        assertThat(probe.get("requests")).isEmpty();
        assertThat(probe.get("verdict").asText()).isEqualTo("not_tested");
        assertThat(probe.get("verdict_reason").asText()).isEqualTo(why);
        assertThat(json.err()).contains(line);

        for (String format : List.of("text", "github")) {
            CliRunner.Result r = CliRunner.run("probe", "--format", format, "--color", "never", "--timeout", "20", "--",
                    "python3", "-c", client);
            assertThat(r.exit()).as(format).isEqualTo(2);
            assertThat(r.out()).as(format).contains(line + "\n");
        }
        CliRunner.Result sarif = CliRunner.run("probe", "--format", "sarif", "--timeout", "20", "--", "python3", "-c",
                client);
        JsonNode run = JSON.readTree(sarif.out()).get("runs").get(0);
        assertThat(run.get("invocations").get(0).get("toolExecutionNotifications").get(0).get("message").get("text")
                .asText()).isEqualTo(line);
        assertThat(run.get("results").get(0).get("ruleId").asText()).isEqualTo("probe/not-tested");
    }

    @Test
    void sarifCarriesTheProbeLineAsANotification() throws Exception {
        CliRunner.Result r = CliRunner.run("probe", "--format", "sarif", "--timeout", "5", "--", "true");

        assertThat(r.exit()).isEqualTo(2);
        JsonNode run = JSON.readTree(r.out()).get("runs").get(0);
        JsonNode note = run.get("invocations").get(0).get("toolExecutionNotifications").get(0);
        assertThat(note.get("level").asText()).isEqualTo("note");
        assertThat(note.get("message").get("text").asText())
                .startsWith("retry-audit: probe: the client exited with code 0: 0 GETs, did not reach success; not tested:");
        assertThat(run.get("results").get(0).get("ruleId").asText()).isEqualTo("probe/not-tested");
        assertThat(run.get("results").get(0).get("locations")).isEmpty();
    }

    @Test
    void helpDescribesTheOptionsAndTheExitCodes() {
        CliRunner.Result r = CliRunner.run("probe", "--help");

        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("Usage: retry-audit probe", "--method=METHOD", "--status=STATUS", "--failures=N",
                "--delay=DELAYS", "3,1,4", "--header-format=FORMAT",
                "retry-after-ms-and-seconds", "--stall=SECONDS",
                "--key-header=NAME", "--no-dedupe", "--max-requests=N", "--timeout=SECONDS", "--port=PORT",
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

        assertThat(r.exit()).isEqualTo(2);
        JsonNode probe = JSON.readTree(r.out()).get("probe");
        assertThat(probe.get("command").toString()).isEqualTo("[\"sh\",\"-c\",\"exit 3\",\"--failures\",\"99\"]");
        assertThat(probe.get("exit_code").asInt()).isEqualTo(3);
        assertThat(probe.get("attempts").asInt()).isZero();
        assertThat(probe.get("scenario").get("failures").asInt()).isEqualTo(3);
        assertThat(probe.get("verdict").asText()).isEqualTo("not_tested");
        assertThat(r.err()).contains("retry-audit: probe: the client exited with code 3: 0 GETs, did not reach success;"
                + " not tested: the client exited with code 3 before any request reached http://127.0.0.1:");
    }

    @Test
    void theClientsOutputIsMarkedSoTheFixturesBodiesAreNotTakenForTheProbes() {
        CliRunner.Result r = CliRunner.run("probe", "--timeout", "10", "--failures", "1", "--delay", "0",
                "--", "sh", "-c", "echo hello; curl -s \"$RETRY_AUDIT_PROBE_URL\"");

        assertThat(r.err()).contains("client| hello\n",
                "client| {\"fixture\": \"retry-audit probe test server\", \"attempt\": 1, \"status\": 429,");
    }

    @Test
    @Tag("timing")
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
        assertThat(r.err()).startsWith("retry-audit: probe: serving " + url + " for 2 s\n"
                + "retry-audit: probe: served for 2 s: 2 GETs, reached success; honoured: every retry waited what was"
                + " asked (asked 0 ms, waited ");
        JsonNode report = JSON.readTree(r.out());
        JsonNode probe = report.get("probe");
        assertThat(probe.get("url").asText()).isEqualTo(url);
        assertThat(probe.get("command").size()).isZero();
        assertThat(probe.get("exit_code").isNull()).isTrue();
        assertThat(probe.get("timed_out").asBoolean()).isFalse();
        assertThat(probe.get("attempts").asInt()).isEqualTo(2);
        assertThat(probe.get("reached_success").asBoolean()).isTrue();
        assertThat(probe.get("verdict").asText()).isEqualTo("honoured");
        assertThat(probe.get("requests")).hasSize(2);
        assertThat(probe.get("requests").get(0).get("asked_ms").asLong()).isZero();
        assertThat(probe.get("requests").get(1).get("gap_ms").asLong()).isNotNegative();
        assertThat(report.get("findings")).isEmpty();
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

package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs real clients against the probe and asserts the verdict their own documentation and source
 * give them, in both Retry-After formats, each scenario twice: curl {@code --retry} and urllib3's
 * {@code Retry} honour Retry-After; wget, urllib3 told not to, and a fixed one-and-a-half-second
 * loop do not; a client that never calls or is killed while a Retry-After is pending tested
 * nothing; a POST that keeps its idempotency key across a held request is clean, one that drops it
 * or never sends one is not. The assertions are on verdicts, never on timings. The delays are
 * 2 s then 1 s (the default schedule 3,1,4 for curl; 4 s then 1 s for the fixed loop, whose
 * process start-ups add to its waits), so that a client with its own backoff of one or two seconds
 * cannot pass by accident. A machine without a client skips that client's tests.
 * The runs are bounded by {@code --timeout} and run concurrently.
 */
@Tag("real-clients")
@Execution(ExecutionMode.CONCURRENT)
class ProbeClientsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PYTHON = "/usr/bin/python3";

    /** Calls the probe up to five times back to back until it answers 200. */
    private static final String IMPATIENT = "for i in 1 2 3 4 5; do"
            + " code=$(curl -s -o /dev/null -w '%{http_code}' \"$RETRY_AUDIT_PROBE_URL\");"
            + " [ \"$code\" = 200 ] && exit 0; done; exit 1";

    /** Calls the probe up to five times, a fixed 1.5 s apart: long enough for a 1 s delay, too short for 4 s. */
    private static final String FIXED_BACKOFF = "for i in 1 2 3 4 5; do"
            + " code=$(curl -s -o /dev/null -w '%{http_code}' \"$RETRY_AUDIT_PROBE_URL\");"
            + " [ \"$code\" = 200 ] && exit 0; sleep 1.5; done; exit 1";

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}, run {1}")
    @CsvSource({"seconds, 1", "seconds, 2", "http-date, 1", "http-date, 2"})
    void curlWithRetryHonoursRetryAfter(String format, int run) throws Exception {
        needs("curl");
        JsonNode report = probe(0, "--delay", "2,1", "--failures", "2", "--header-format", format,
                "--", "curl", "-sS", "--retry", "5", "{url}");

        assertVerdict(report, "honoured");
        assertThat(report.get("findings")).isEmpty();
        JsonNode probe = report.get("probe");
        assertThat(probe.get("exit_code").asInt()).isZero();
        assertThat(probe.get("attempts").asInt()).isEqualTo(3);
        assertThat(probe.get("reached_success").asBoolean()).isTrue();
        assertThat(probe.get("requests")).hasSize(3);
    }

    @ParameterizedTest(name = "run {0}")
    @ValueSource(ints = {1, 2})
    void curlHonoursTheDefaultSchedule(int run) throws Exception {
        needs("curl");
        JsonNode report = probe(0, "--", "curl", "-sS", "--retry", "5", "{url}");

        assertVerdict(report, "honoured");
        assertThat(report.get("probe").get("scenario").get("delays_seconds").toString()).isEqualTo("[3,1,4]");
        assertThat(report.get("probe").get("attempts").asInt()).isEqualTo(4);
    }

    @ParameterizedTest(name = "{0}, run {1}")
    @CsvSource({"seconds, 1", "seconds, 2", "http-date, 1", "http-date, 2"})
    void wgetRetriesOnItsOwnBackoffAndComesBackEarly(String format, int run) throws Exception {
        needs("wget");
        JsonNode report = probe(2, "--delay", "2,1", "--failures", "2", "--header-format", format,
                "--", "wget", "-q", "-O", "-", "--retry-on-http-error=429,503", "--tries=5", "{url}");

        assertVerdict(report, "violated");
        assertThat(rules(report)).contains("retry-after/early");
        assertThat(report.get("probe").get("verdict_reason").asText()).startsWith("came back ");
        JsonNode early = first(report, "retry-after/early");
        assertThat(early.get("tool").asText()).startsWith("wget ");
        assertThat(early.get("message").asText()).startsWith("attempt 2 of wget -q -O - ");
    }

    @ParameterizedTest(name = "{0}, run {1}")
    @CsvSource({"seconds, 1", "seconds, 2", "http-date, 1", "http-date, 2"})
    void urllib3RetryHonoursRetryAfterByDefault(String format, int run) throws Exception {
        needsUrllib3();
        JsonNode report = probe(0, "--delay", "2,1", "--failures", "2", "--header-format", format,
                "--", PYTHON, script("urllib3_get.py"), "respect");

        assertVerdict(report, "honoured");
        assertThat(report.get("findings")).isEmpty();
    }

    @ParameterizedTest(name = "{0}, run {1}")
    @CsvSource({"seconds, 1", "seconds, 2", "http-date, 1", "http-date, 2"})
    void urllib3ToldNotToRespectRetryAfterComesBackAtOnce(String format, int run) throws Exception {
        needsUrllib3();
        JsonNode report = probe(2, "--delay", "2,1", "--failures", "2", "--header-format", format,
                "--", PYTHON, script("urllib3_get.py"), "ignore");

        assertVerdict(report, "violated");
        assertThat(rules(report)).containsOnly("retry-after/early");
    }

    @ParameterizedTest(name = "{0}, run {1}")
    @CsvSource({"seconds, 1", "seconds, 2", "http-date, 1", "http-date, 2"})
    void aFixedBackoffLongEnoughForOneDelayButNotTheOtherIsAViolation(String format, int run) throws Exception {
        needs("curl");
        JsonNode report = probe(2, "--delay", "4,1", "--failures", "2", "--header-format", format,
                "--", "sh", "-c", FIXED_BACKOFF);

        assertVerdict(report, "violated");
        assertThat(rules(report)).contains("retry-after/early");
    }

    @ParameterizedTest(name = "run {0}")
    @ValueSource(ints = {1, 2})
    void aBackoffLongerThanEveryDelayDoesNotFollowThem(int run) throws Exception {
        needs("curl");
        JsonNode report = probe(2, "--delay", "1,0", "--failures", "2", "--", "sh", "-c",
                FIXED_BACKOFF.replace("sleep 1.5", "sleep 2.5"));

        assertVerdict(report, "violated");
        assertThat(rules(report)).containsOnly("probe/not-followed");
        assertThat(first(report, "probe/not-followed").get("message").asText())
                .contains("the client's own backoff happened to be long enough");
    }

    @ParameterizedTest(name = "run {0}")
    @ValueSource(ints = {1, 2})
    void aClientThatNeverCallsTestedNothing(int run) throws Exception {
        JsonNode report = probe(2, "--timeout", "5", "--", "sh", "-c", "exit 0");

        assertVerdict(report, "not_tested");
        assertThat(rules(report)).containsOnly("probe/not-tested");
        assertThat(report.get("probe").get("verdict_reason").asText())
                .startsWith("the client exited with code 0 without calling http://127.0.0.1:");
    }

    @Test
    void aClientSpeakingTlsToThePlainProbeTestedNothing() throws Exception {
        needs("curl");
        JsonNode report = probe(2, "--", "sh", "-c", "curl -sS --retry 2 \"https${RETRY_AUDIT_PROBE_URL#http}\"");

        assertVerdict(report, "not_tested");
        assertThat(report.get("probe").get("exit_code").asInt()).isNotZero();
        assertThat(report.get("probe").get("verdict_reason").asText())
                .endsWith("after 1 unfinished request(s) (cut off, timed out, or a protocol other than plain HTTP?)");
    }

    @ParameterizedTest(name = "run {0}")
    @ValueSource(ints = {1, 2})
    void aClientKilledWhileARetryAfterIsPendingTestedNothing(int run) throws Exception {
        needs("curl");
        JsonNode report = probe(2, "--delay", "30", "--timeout", "2", "--", "curl", "-sS", "--retry", "3", "{url}");

        assertVerdict(report, "not_tested");
        JsonNode probe = report.get("probe");
        assertThat(probe.get("timed_out").asBoolean()).isTrue();
        assertThat(probe.get("exit_code").isNull()).isTrue();
        assertThat(probe.get("verdict_reason").asText()).isEqualTo("the client was killed at the 2 s timeout while a"
                + " wait of 30000 ms asked by Retry-After: 30 was still pending");
    }

    @ParameterizedTest(name = "{0}, run {1}")
    @CsvSource({"keep, 1", "keep, 2"})
    void aPostThatKeepsItsKeyAcrossAHeldRequestIsClean(String mode, int run) throws Exception {
        needsPython();
        JsonNode report = probe(0, "--method", "POST", "--stall", "2", "--failures", "1",
                "--", PYTHON, script("post_with_key.py"), mode);

        assertVerdict(report, "honoured");
        assertThat(report.get("findings")).isEmpty();
        JsonNode requests = report.get("probe").get("requests");
        assertThat(requests.get(0).get("commit_state").asText()).isEqualTo("committed");
        assertThat(requests.get(0).get("stalled_ms").asLong()).isEqualTo(2000);
        assertThat(requests.get(1).get("commit_state").asText()).isEqualTo("rejected");
        assertThat(requests.get(1).get("idempotency_key").asText()).isEqualTo("order-42");
        assertThat(requests.get(1).get("request_hash").asText()).isEqualTo(requests.get(0).get("request_hash").asText());
    }

    @ParameterizedTest(name = "run {0}")
    @ValueSource(ints = {1, 2})
    void curlKeepsItsKeyAcrossAHeldRequest(int run) throws Exception {
        needs("curl");
        JsonNode report = probe(0, "--method", "POST", "--stall", "2", "--failures", "1", "--", "curl", "-sS",
                "-m", "1", "--retry", "2", "-H", "Idempotency-Key: k-1", "-d", "{\"a\": 1}", "{url}");

        assertVerdict(report, "honoured");
        assertThat(report.get("findings")).isEmpty();
    }

    @ParameterizedTest(name = "{0}, run {1}")
    @CsvSource({"drop, 1", "drop, 2", "none, 1", "none, 2"})
    void aPostThatDropsItsKeyOrNeverSendsOneCommitsTwice(String mode, int run) throws Exception {
        needsPython();
        JsonNode report = probe(2, "--method", "POST", "--stall", "2", "--failures", "1",
                "--", PYTHON, script("post_with_key.py"), mode);

        assertVerdict(report, "violated");
        assertThat(rules(report)).contains("effect-verification/duplicate-commit",
                mode.equals("none") ? "timeout-replay/keyless" : "timeout-replay/unreconciled");
        assertThat(report.get("probe").get("requests").get(1).get("commit_state").asText()).isEqualTo("committed");
    }

    @ParameterizedTest(name = "run {0}")
    @ValueSource(ints = {1, 2})
    void withBothHeadersTheReportSaysWhichOneEachClientObeyed(int run) throws Exception {
        needs("curl");
        needsPython();
        JsonNode sdk = probe(0, "--delay", "1,0", "--failures", "2", "--header-format", "retry-after-ms-and-seconds",
                "--", PYTHON, script("retry_after_ms.py"));
        JsonNode curl = probe(0, "--delay", "1,0", "--failures", "2", "--header-format", "retry-after-ms-and-seconds",
                "--", "curl", "-sS", "--retry", "5", "{url}");

        assertVerdict(sdk, "honoured");
        assertThat(sdk.get("probe").get("obeyed_header").asText()).isEqualTo("retry-after-ms");
        assertVerdict(curl, "honoured");
        assertThat(curl.get("probe").get("obeyed_header").asText()).isEqualTo("Retry-After");
    }

    @ParameterizedTest(name = "run {0}")
    @ValueSource(ints = {1, 2})
    void curlDoesNotReadRetryAfterMsAlone(int run) throws Exception {
        needs("curl");
        JsonNode report = probe(2, "--delay", "2,1", "--failures", "2", "--header-format", "retry-after-ms",
                "--", "curl", "-sS", "--retry", "5", "{url}");

        assertVerdict(report, "violated");
        assertThat(rules(report)).contains("retry-after/early");
    }

    @ParameterizedTest(name = "run {0}")
    @ValueSource(ints = {1, 2})
    void curlDoesNotResendARequestRejectedWith422(int run) throws Exception {
        needs("curl");
        JsonNode report = probe(0, "--status", "422", "--failures", "1", "--", "curl", "-sS", "--retry", "3", "{url}");

        assertVerdict(report, "honoured");
        assertThat(report.get("probe").get("attempts").asInt()).isEqualTo(1);
        assertThat(report.get("probe").get("requests").get(0).get("retry_after").isNull()).isTrue();
    }

    @ParameterizedTest(name = "run {0}")
    @ValueSource(ints = {1, 2})
    void aLoopThatResendsA422UnchangedRepeatsTheValidationFailure(int run) throws Exception {
        needs("curl");
        JsonNode report = probe(2, "--status", "422", "--failures", "1", "--method", "POST", "--", "sh", "-c",
                "curl -s -d '{\"qty\": -1}' \"$RETRY_AUDIT_PROBE_URL\"; curl -s -d '{\"qty\": -1}' \"$RETRY_AUDIT_PROBE_URL\"");

        assertVerdict(report, "violated");
        assertThat(rules(report)).contains("validation-repeat/identical");
    }

    @Test
    void thePolicyDecidesTheTolerance() throws Exception {
        needs("curl");
        Path policy = dir.resolve("policy.json");
        Files.writeString(policy, "{\"version\": 1, \"retry_after\": {\"tolerance_ms\": 5000}}");

        JsonNode report = probe(0, "--policy", policy.toString(), "--failures", "1", "--delay", "1",
                "--", "sh", "-c", IMPATIENT);

        assertVerdict(report, "honoured");
    }

    @Test
    void aClientPastTheTimeoutIsKilledWithItsChildren() throws Exception {
        needs("curl");
        CliRunner.Result r = CliRunner.run("probe", "--failures", "1", "--delay", "30", "--timeout", "1",
                "--", "sh", "-c", "curl -sS --retry 3 \"$RETRY_AUDIT_PROBE_URL\"; sleep 37.25");

        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains("the client was still running after 1 s (--timeout) and was killed",
                "retry-audit: probe: the client was killed at the 1 s timeout: 1 GET, did not reach success; not tested:");
        JsonNode probe = JSON.readTree(r.out()).get("probe");
        assertThat(probe.get("timed_out").asBoolean()).isTrue();
        assertThat(survivors(probe.get("url").asText())).isEmpty();
    }

    @Test
    void otherMethodsAreAnswered405AndCounted() throws Exception {
        needs("curl");
        CliRunner.Result r = CliRunner.run("probe", "--timeout", "20", "--", "curl", "-sS", "-X", "POST", "{url}");

        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        JsonNode probe = JSON.readTree(r.out()).get("probe");
        assertThat(probe.get("attempts").asInt()).isZero();
        assertThat(probe.get("other_requests").asInt()).isEqualTo(1);
        assertThat(probe.get("verdict_reason").asText()).isEqualTo("no GET reached the probe, only 1 request(s) of"
                + " other methods, answered 405");
        assertThat(r.err()).contains("\"allow\": \"GET\", \"status\": 405");
    }

    @Test
    void twoClientsAtOnceAreNotBlamedAsOne() throws Exception {
        needs("curl");
        JsonNode report = probe(2, "--delay", "1", "--failures", "2", "--", "sh", "-c",
                "curl -sS --retry 3 \"$RETRY_AUDIT_PROBE_URL\" & curl -sS --retry 3 \"$RETRY_AUDIT_PROBE_URL\"; wait");

        assertVerdict(report, "not_tested");
        assertThat(rules(report)).containsOnly("probe/not-tested");
        assertThat(report.get("probe").get("verdict_reason").asText()).contains("the verdict is not reliable");
        assertThat(report.get("probe").get("connections").asInt()).isEqualTo(2);
    }

    @Test
    void theRecordedTraceAuditsToTheSameFindings() throws Exception {
        Path trace = dir.resolve("trace.json");
        needs("curl");
        CliRunner.Result probe = CliRunner.run("probe", "--failures", "2", "--delay", "1", "--timeout", "20",
                "--trace-out", trace.toString(), "--", "sh", "-c", IMPATIENT);
        CliRunner.Result audit = CliRunner.run("audit", "--input-format", "retry-trace", trace.toString());
        CliRunner.Result auto = CliRunner.run("audit", trace.toString());

        assertThat(probe.exit()).as(probe.err()).isEqualTo(2);
        assertThat(audit.exit()).isEqualTo(2);
        JsonNode probed = JSON.readTree(probe.out());
        JsonNode audited = JSON.readTree(audit.out());
        assertThat(probed.get("findings")).isNotEmpty().isEqualTo(audited.get("findings"));
        assertThat(probed.get("inputs")).isEqualTo(audited.get("inputs"));
        assertThat(probed.get("summary")).isEqualTo(audited.get("summary"));
        assertThat(audited.has("probe")).isFalse();
        assertThat(auto.out()).isEqualTo(audit.out());
    }

    /** Runs the probe with a 30 s timeout (unless given) and the JSON report, checking the exit code. */
    private static JsonNode probe(int exit, String... args) throws IOException {
        List<String> all = new ArrayList<>(List.of("probe"));
        if (!List.of(args).contains("--timeout")) {
            all.addAll(List.of("--timeout", "30"));
        }
        all.addAll(List.of(args));
        CliRunner.Result r = CliRunner.run(all.toArray(String[]::new));
        assertThat(r.exit()).as(r.err() + r.out()).isEqualTo(exit);
        return JSON.readTree(r.out());
    }

    private static void assertVerdict(JsonNode report, String verdict) {
        assertThat(report.get("probe").get("verdict").asText()).as(report.toPrettyString()).isEqualTo(verdict);
    }

    private static List<String> rules(JsonNode report) {
        List<String> rules = new ArrayList<>();
        report.get("findings").forEach(f -> rules.add(f.get("rule").asText()));
        return rules;
    }

    private static JsonNode first(JsonNode report, String rule) {
        for (JsonNode f : report.get("findings")) {
            if (f.get("rule").asText().equals(rule)) {
                return f;
            }
        }
        throw new AssertionError("no " + rule + " finding in " + report.toPrettyString());
    }

    private static String script(String name) throws URISyntaxException {
        return Path.of(ProbeClientsTest.class.getResource("/probe-clients/" + name).toURI()).toString();
    }

    /** Skips the test, naming the client, when the machine lacks it. */
    private static void needs(String client) throws Exception {
        assumeTrue(runs(client, "--version"), client + " is not installed: skipping its probe test");
    }

    private static void needsPython() throws Exception {
        assumeTrue(runs(PYTHON, "-c", "pass"), PYTHON + " is not installed: skipping its probe test");
    }

    private static void needsUrllib3() throws Exception {
        assumeTrue(runs(PYTHON, "-c", "import urllib3"),
                "python3-urllib3 is not installed for " + PYTHON + ": skipping its probe test");
    }

    static boolean runs(String... command) throws InterruptedException {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** Processes still running whose command line names the probe URL or the marker, after up to two seconds. */
    private static List<String> survivors(String url) throws InterruptedException {
        List<String> alive = List.of();
        for (int i = 0; i < 20; i++) {
            alive = ProcessHandle.allProcesses()
                    .map(p -> p.info().commandLine())
                    .flatMap(Optional::stream)
                    .filter(c -> c.contains(url) || c.contains("sleep 37.25"))
                    .toList();
            if (alive.isEmpty()) {
                break;
            }
            Thread.sleep(100);
        }
        return alive;
    }
}

package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs real clients against the probe: curl, which honours Retry-After in both forms (since 7.66),
 * and a shell loop of single curl calls, which does not wait at all. Every run is bounded by
 * {@code --timeout} and {@code --max-requests}.
 */
class ProbeClientsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Calls the probe up to five times back to back until it answers 200. */
    private static final String IMPATIENT = "for i in 1 2 3 4 5; do"
            + " code=$(curl -s -o /dev/null -w '%{http_code}' \"$RETRY_AUDIT_PROBE_URL\");"
            + " [ \"$code\" = 200 ] && exit 0; done; exit 1";

    @TempDir
    Path dir;

    /** A delay of 2 s, above curl's own first back-off of 1 s, so only a client that reads the header passes. */
    @ParameterizedTest
    @ValueSource(strings = {"seconds", "http-date"})
    void curlWithRetryHonoursRetryAfterAndPasses(String headerFormat) throws Exception {
        CliRunner.Result r = CliRunner.run("probe", "--failures", "1", "--delay", "2", "--header-format", headerFormat,
                "--timeout", "20", "--", "curl", "-sS", "--retry", "3", "{url}");

        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode report = JSON.readTree(r.out());
        assertThat(report.get("findings")).isEmpty();
        JsonNode probe = report.get("probe");
        assertThat(probe.get("exit_code").asInt()).isZero();
        assertThat(probe.get("timed_out").asBoolean()).isFalse();
        assertThat(probe.get("attempts").asInt()).isEqualTo(2);
        assertThat(probe.get("reached_success").asBoolean()).isTrue();
        assertThat(probe.get("honoured_retry_after").asBoolean()).isTrue();
        assertThat(probe.get("scenario").get("header_format").asText()).isEqualTo(headerFormat);
        assertThat(r.err()).contains("\"attempt\": 2, \"status\": 200");
    }

    @Test
    void curlWaitsTheFullDelayNotJustItsOwnBackOff(@TempDir Path tmp) throws Exception {
        Path trace = tmp.resolve("trace.json");
        CliRunner.Result r = CliRunner.run("probe", "--failures", "1", "--delay", "2", "--timeout", "20",
                "--trace-out", trace.toString(), "--", "curl", "-sS", "--retry", "3", "{url}");

        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode attempts = JSON.readTree(trace.toFile()).get("attempts");
        assertThat(attempts.get(1).get("gap_from_previous_ms").asLong()).isGreaterThanOrEqualTo(2000);
    }

    /**
     * A delay of 2 s: an HTTP-date counts from the receipt time truncated to whole seconds, so with
     * 1 s a request arriving late in its second could be allowed back almost at once.
     */
    @ParameterizedTest
    @CsvSource({"seconds, delay-seconds", "http-date, http-date"})
    void aClientThatDoesNotWaitFailsWithRetryAfterEarly(String headerFormat, String form) throws Exception {
        CliRunner.Result r = CliRunner.run("probe", "--failures", "1", "--delay", "2", "--header-format", headerFormat,
                "--timeout", "20", "--", "sh", "-c", IMPATIENT);

        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        JsonNode report = JSON.readTree(r.out());
        JsonNode probe = report.get("probe");
        assertThat(probe.get("exit_code").asInt()).isZero();
        assertThat(probe.get("attempts").asInt()).isEqualTo(2);
        assertThat(probe.get("reached_success").asBoolean()).isTrue();
        assertThat(probe.get("honoured_retry_after").asBoolean()).isFalse();
        JsonNode early = only(report, "retry-after/early");
        assertThat(early.get("severity").asText()).isEqualTo("error");
        assertThat(early.get("attempt").asInt()).isEqualTo(2);
        long earlyMs = early.get("evidence").get("early_ms").asLong();
        assertThat(earlyMs).isPositive();
        assertThat(early.get("message").asText()).matches("attempt 2 of \\S+ came back " + earlyMs
                + " ms before Retry-After allowed \\(Retry-After: .+ on attempt 1\\)");
        assertThat(early.get("evidence").get("retry_after_form").asText()).isEqualTo(form);
        assertThat(r.err()).contains("the client exited with code 0: 2 GETs, reached success,"
                + " came back before Retry-After allowed\n");
    }

    @Test
    void thePolicyDecidesTheTolerance() throws Exception {
        Path policy = dir.resolve("policy.json");
        Files.writeString(policy, "{\"version\": 1, \"retry_after\": {\"tolerance_ms\": 5000}}");

        CliRunner.Result r = CliRunner.run("probe", "--policy", policy.toString(), "--failures", "1", "--delay", "1",
                "--timeout", "20", "--", "sh", "-c", IMPATIENT);

        assertThat(r.exit()).as(r.out()).isZero();
        assertThat(JSON.readTree(r.out()).get("probe").get("honoured_retry_after").asBoolean()).isTrue();
    }

    @Test
    void aClientThatGivesUpBeforeSuccessIsReportedAsSuch() throws Exception {
        CliRunner.Result r = CliRunner.run("probe", "--failures", "3", "--delay", "1", "--timeout", "20",
                "--", "curl", "-sS", "--fail", "--retry", "1", "{url}");

        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode probe = JSON.readTree(r.out()).get("probe");
        assertThat(probe.get("exit_code").asInt()).isEqualTo(22);
        assertThat(probe.get("attempts").asInt()).isEqualTo(2);
        assertThat(probe.get("reached_success").asBoolean()).isFalse();
        assertThat(probe.get("honoured_retry_after").asBoolean()).isTrue();
        assertThat(r.err()).contains("retry-audit: probe: the client exited with code 22: 2 GETs, did not reach success,"
                + " honoured Retry-After\n");
    }

    @Test
    void aClientPastTheTimeoutIsKilledWithItsChildren() throws Exception {
        String marker = "37.25";
        long start = System.nanoTime();
        CliRunner.Result r = CliRunner.run("probe", "--failures", "1", "--delay", "30", "--timeout", "1",
                "--", "sh", "-c", "curl -sS --retry 3 \"$RETRY_AUDIT_PROBE_URL\"; sleep " + marker);
        long tookMillis = (System.nanoTime() - start) / 1_000_000;

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(tookMillis).isLessThan(10_000);
        assertThat(r.err()).contains("the client was still running after 1 s (--timeout) and was killed",
                "retry-audit: probe: the client was killed at the 1 s timeout: 1 GET, did not reach success\n");
        JsonNode probe = JSON.readTree(r.out()).get("probe");
        assertThat(probe.get("timed_out").asBoolean()).isTrue();
        assertThat(probe.get("exit_code").isNull()).isTrue();
        assertThat(probe.get("attempts").asInt()).isEqualTo(1);
        assertThat(probe.get("reached_success").asBoolean()).isFalse();
        assertThat(survivors(probe.get("url").asText())).isEmpty();
    }

    @Test
    void otherMethodsAreAnswered405AndCounted() throws Exception {
        CliRunner.Result r = CliRunner.run("probe", "--timeout", "20", "--", "curl", "-sS", "-X", "POST", "{url}");

        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode probe = JSON.readTree(r.out()).get("probe");
        assertThat(probe.get("attempts").asInt()).isZero();
        assertThat(probe.get("other_requests").asInt()).isEqualTo(1);
        assertThat(r.err()).contains("\"allow\": \"GET\", \"status\": 405",
                "the client exited with code 0: 0 GETs and 1 request of other methods, did not reach success\n")
                .doesNotContain("nothing was tested");
    }

    @Test
    void theRecordedTraceAuditsToTheSameFindings() throws Exception {
        Path trace = dir.resolve("trace.json");
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

    private static JsonNode only(JsonNode report, String rule) {
        List<JsonNode> found = new ArrayList<>();
        report.get("findings").forEach(f -> {
            if (f.get("rule").asText().equals(rule)) {
                found.add(f);
            }
        });
        assertThat(found).as(report.toPrettyString()).hasSize(1);
        return found.get(0);
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

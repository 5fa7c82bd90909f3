package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Retry Trace's local curl diagnostic report through {@code audit}: one operation a case, its verdicts and errors. */
class CurlDiagnosticAuditTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static String resource(String name) throws Exception {
        return Path.of(CurlDiagnosticAuditTest.class.getResource("/retry-trace/" + name).toURI()).toString();
    }

    private static List<JsonNode> findings(JsonNode report) {
        List<JsonNode> list = new ArrayList<>();
        report.get("findings").forEach(list::add);
        return list;
    }

    @Test
    void curlThatHonouredBothFormsIsCleanAndEachCaseIsAnOperation() throws Exception {
        CliRunner.Result r = CliRunner.run("audit", resource("local-curl-diagnostic.json"));
        assertThat(r.err()).isEmpty();
        assertThat(r.exit()).isZero();
        JsonNode report = JSON.readTree(r.out());
        assertThat(report.get("inputs").get(0).get("format").asText()).isEqualTo("retry-trace");
        assertThat(report.get("summary").get("operations").asInt()).isEqualTo(4);
        assertThat(report.get("summary").get("retries").asInt()).isEqualTo(2);
    }

    @Test
    void curlThatCameBackEarlyFailsOnEachRetryingCase() throws Exception {
        String file = resource("local-curl-diagnostic-early.json");
        CliRunner.Result r = CliRunner.run("audit", file);
        assertThat(r.exit()).isEqualTo(2);
        List<JsonNode> early = findings(JSON.readTree(r.out()));
        assertThat(early).extracting(f -> f.get("rule").asText()).containsOnly("retry-after/early");
        assertThat(early).extracting(f -> f.get("operation").asText())
                .containsExactly(file + "#seconds-retry", file + "#date-retry");
        assertThat(early).extracting(f -> f.get("evidence").get("early_ms").asLong()).containsExactly(1588L, 1602L);
        JsonNode date = early.get(1).get("evidence");
        assertThat(date.get("retry_after").asText()).isEqualTo("Thu, 01 Jan 1970 00:00:02 GMT");
        assertThat(date.get("response_date").asText()).isEqualTo("Thu, 01 Jan 1970 00:00:00 GMT");
        assertThat(early.get(0).get("location").get("pointer").asText()).isEqualTo("/cases/1");
    }

    @Test
    void anHttpDateCaseAllowsForTheDatesWholeSeconds() throws Exception {
        String text = Files.readString(Path.of(resource("local-curl-diagnostic.json")));
        String oneAndAHalf = text.replace("1.003", "1.5");
        Path p = dir.resolve("d.json");
        Files.writeString(p, oneAndAHalf);
        assertThat(CliRunner.run("audit", p.toString()).exit()).isZero();
        Files.writeString(p, text.replace("1.003", "0.5"));
        assertThat(CliRunner.run("audit", p.toString()).exit()).isEqualTo(2);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "\"kind\": \"local-curl-retry-after-diagnostic\"|\"kind\": \"local-curl\"|$.kind: unsupported kind: this reader reads local-curl-retry-after-diagnostic",
        "\"status\": 429|\"status\": 4290|$.status: number out of range: must be between 100 and 599",
        "\"status\": 429,|''|$: missing required field status",
        "\"delay_seconds\": 2,|''|$: missing required field delay_seconds",
        "\"header_format\": \"seconds\"|\"header_format\": \"date\"|$.cases[0].header_format: expected one of seconds, http-date",
        "\"server_observed_statuses\": [\\n        429\\n      ]|\"server_observed_statuses\": [429, 42]|$.cases[0].server_observed_statuses[1]: number out of range: must be between 100 and 599",
        "2.004|-2|$.cases[1].server_arrival_gaps_seconds[0]: number out of range: must be between 0 and 1e15",
        "[\\n        2.004\\n      ]|[]|$.cases[1].server_arrival_gaps_seconds: expected 1 gaps, one between each two of the 2 observed statuses",
        "\"cases\": [|\"cases\": {}, \"x\": [|$.cases: expected the cases (a JSON array), found an object",
    })
    void badReportsAreRejectedWithThePath(String from, String to, String message) throws Exception {
        String text = Files.readString(Path.of(resource("local-curl-diagnostic.json")));
        assertThat(text).contains(from.replace("\\n", "\n"));
        Path p = dir.resolve("bad.json");
        Files.writeString(p, text.replace(from.replace("\\n", "\n"), to));
        CliRunner.Result r = CliRunner.run("audit", "--input-format", "retry-trace", p.toString());
        assertThat(r.exit()).isEqualTo(65);
        assertThat(r.err()).contains(": error: " + message);
    }
}

package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The retry-trace format through {@code audit}: the reference traces' verdicts and the errors of bad ones. */
class RetryTraceAuditTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void aClientThatCameBackEarlyAfterDelaySecondsFails() throws Exception {
        CliRunner.Result r = CliRunner.run("audit", resource("retry-trace-seconds-early.json"));

        assertThat(r.exit()).isEqualTo(2);
        JsonNode report = JSON.readTree(r.out());
        assertThat(report.get("inputs").get(0).get("format").asText()).isEqualTo("retry-trace");
        List<JsonNode> early = findings(report, "retry-after/early");
        assertThat(early).extracting(f -> f.get("attempt").asInt()).containsExactly(2, 3);
        assertThat(early).extracting(f -> f.get("evidence").get("early_ms").asLong()).containsExactly(1688L, 982L);
        assertThat(early.get(0).get("operation").asText()).isEqualTo("0b9d7c1e-8f2a-4e3b-a6c4-5d1e9f0a2b37");
        assertThat(early.get(0).get("tool").asText()).isEqualTo("retry-trace");
        assertThat(early.get(0).get("location").get("pointer").asText()).isEqualTo("/attempts/1");
    }

    @Test
    void aClientThatCameBackBeforeAnHttpDateFails() throws Exception {
        CliRunner.Result r = CliRunner.run("audit", "--input-format", "retry-trace",
                resource("retry-trace-http-date-early.json"));

        assertThat(r.exit()).isEqualTo(2);
        List<JsonNode> early = findings(JSON.readTree(r.out()), "retry-after/early");
        assertThat(early).extracting(f -> f.get("evidence").get("early_ms").asLong()).containsExactly(290L);
    }

    @Test
    void aClientThatWaitedPasses() throws Exception {
        CliRunner.Result r = CliRunner.run("audit", resource("retry-trace-seconds-honoured.json"));

        assertThat(r.exit()).as(r.out()).isZero();
        assertThat(JSON.readTree(r.out()).get("summary").get("passed").asBoolean()).isTrue();
    }

    @Test
    void findingRecordsAndCurlComparisonsAreAuditedToo() throws Exception {
        CliRunner.Result record = CliRunner.run("audit", resource("finding-record.json"));
        CliRunner.Result comparison = CliRunner.run("audit", resource("curl-comparison.json"));

        assertThat(record.exit()).isEqualTo(2);
        assertThat(findings(JSON.readTree(record.out()), "retry-after/early"))
                .extracting(f -> f.get("location").get("pointer").asText()).containsExactly("/evidence/attempts/1");
        assertThat(comparison.exit()).as(comparison.out()).isZero();
        assertThat(JSON.readTree(comparison.out()).get("inputs").get(0).get("operations").asInt()).isEqualTo(2);
    }

    @Test
    void aBadTraceExits65WithItsLocationAndPath() throws Exception {
        Path f = dir.resolve("bad.json");
        Files.writeString(f, "{\"run_id\": \"r\",\n \"attempts\": [{\"sequence\": 1, \"received\": \"2026-09-07T10:00:00Z\","
                + " \"status\": \"429\"}]}");

        CliRunner.Result r = CliRunner.run("audit", f.toString());

        assertThat(r.exit()).isEqualTo(65);
        assertThat(r.err()).isEqualTo(f + ":2:77: error: $.attempts[0].status: expected an integer, found a string\n");
        JsonNode error = JSON.readTree(r.out()).get("error");
        assertThat(error.get("code").asInt()).isEqualTo(65);
        assertThat(error.get("path").asText()).isEqualTo("$.attempts[0].status");
    }

    @Test
    void stdinIsDetectedAsARetryTrace() throws Exception {
        String trace = Files.readString(Path.of(resource("retry-trace-seconds-honoured.json")));

        CliRunner.Result r = CliRunner.runWithStdin(trace, "audit");

        assertThat(r.exit()).isZero();
        assertThat(JSON.readTree(r.out()).get("inputs").get(0).get("format").asText()).isEqualTo("retry-trace");
    }

    private static List<JsonNode> findings(JsonNode report, String rule) {
        List<JsonNode> found = new ArrayList<>();
        report.get("findings").forEach(f -> {
            if (f.get("rule").asText().equals(rule)) {
                found.add(f);
            }
        });
        return found;
    }

    private static String resource(String name) throws URISyntaxException {
        return Path.of(RetryTraceAuditTest.class.getResource("/retry-trace/" + name).toURI()).toString();
    }
}

package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Zipkin and Jaeger exports through the command line: detection, verdicts of retries after 429, and input errors. */
class ZipkinJaegerCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static String resource(String name) throws Exception {
        return Path.of(ZipkinJaegerCliTest.class.getResource(name).toURI()).toString();
    }

    @ParameterizedTest
    @CsvSource({
        "/input/zipkin/retry-429-early.json, zipkin, 2, 1700",
        "/input/zipkin/retry-429-early.jsonl, zipkin, 2, 1700",
        "/input/zipkin/retry-429-honoured.json, zipkin, 0, 0",
        "/input/jaeger/retry-429-early.json, jaeger, 2, 1700",
        "/input/jaeger/retry-429-honoured.json, jaeger, 0, 0",
    })
    void aRetryAfter429IsJudgedAcrossOtherTraffic(String file, String format, int exit, long earlyMs) throws Exception {
        CliRunner.Result r = CliRunner.run("audit", resource(file));
        assertThat(r.err()).isEmpty();
        assertThat(r.exit()).isEqualTo(exit);
        JsonNode report = JSON.readTree(r.out());
        assertThat(report.get("inputs").get(0).get("format").asText()).isEqualTo(format);
        assertThat(report.get("summary").get("operations").asInt()).isEqualTo(2);
        assertThat(report.get("summary").get("retries").asInt()).isEqualTo(1);
        if (exit == 2) {
            JsonNode f = report.get("findings").get(0);
            assertThat(f.get("rule").asText()).isEqualTo("retry-after/early");
            assertThat(f.get("evidence").get("early_ms").asLong()).isEqualTo(earlyMs);
            assertThat(f.get("evidence").get("grouped_by").asText()).startsWith("inferred: same parent");
        } else {
            assertThat(report.get("findings")).isEmpty();
        }
    }

    @Test
    void theInputFormatCanBeNamed() throws Exception {
        assertThat(CliRunner.run("audit", "--input-format", "zipkin", resource("/input/zipkin/retry-429-early.json")).exit())
                .isEqualTo(2);
        CliRunner.Result wrong = CliRunner.run("audit", "--input-format", "zipkin", resource("/input/jaeger/retry-429-early.json"));
        assertThat(wrong.exit()).isEqualTo(65);
        assertThat(wrong.err()).endsWith(":1:1: error: $: missing required field traceId: not a Zipkin span\n");
        assertThat(CliRunner.run("audit", "--input-format", "jaeger", resource("/input/jaeger/retry-429-early.json")).exit())
                .isEqualTo(2);
    }

    @Test
    void aBadTagIsOneLineWithFileLineColumnAndPath() throws IOException {
        Path p = dir.resolve("bad.json");
        Files.writeString(p, "[\n  {\"traceId\": \"7d1c4e9a2b3f4a5c\", \"id\": \"1\", \"kind\": \"CLIENT\",\n"
                + "   \"tags\": {\"http.method\": \"GET\", \"http.status_code\": 429}}\n]\n");
        CliRunner.Result r = CliRunner.run("audit", "--format", "text", p.toString());
        assertThat(r.exit()).isEqualTo(65);
        assertThat(r.err()).isEqualTo(p + ":3:55: error: $[0].tags['http.status_code']: tag http.status_code: "
                + "a Zipkin tag is a string, found an integer\n");
    }

    @Test
    void theHelpNamesTheNewFormats() {
        assertThat(CliRunner.run("audit", "--help").out()).contains("zipkin, jaeger");
    }
}

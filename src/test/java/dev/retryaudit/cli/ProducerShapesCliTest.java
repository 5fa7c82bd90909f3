package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * OTLP exports shaped as shipped instrumentations write them, through the command line: resends as
 * siblings without a resend count, headers with {@code _} for {@code -} and split at commas, timeouts
 * only as an exception event, a hint attribute of an unexpected type, one span over all sends.
 */
class ProducerShapesCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TRACE = "7d1c4e9a2b3f4a5c8e6d0f1a2b3c4d5e";
    /** 2026-11-30T21:46:00Z in milliseconds. */
    private static final long T0 = 1_796_075_160_000L;

    /** A client span under one parent, sent at {@code at} ms after T0 for {@code took} ms, with more attributes and fields. */
    private static String span(int n, long at, long took, String method, String extra, String fields) {
        return "{\"traceId\":\"" + TRACE + "\",\"spanId\":\"" + String.format("%016x", n)
                + "\",\"parentSpanId\":\"00000000000000aa\",\"name\":\"" + method + "\",\"kind\":3,"
                + "\"startTimeUnixNano\":\"" + (T0 + at) * 1_000_000 + "\",\"endTimeUnixNano\":\""
                + (T0 + at + took) * 1_000_000 + "\"" + fields + ",\"attributes\":["
                + "{\"key\":\"http.method\",\"value\":{\"stringValue\":\"" + method + "\"}},"
                + "{\"key\":\"http.url\",\"value\":{\"stringValue\":\"http://127.0.0.1:8080/v1/orders\"}}"
                + extra + "]}";
    }

    private static String status(int code) {
        return ",{\"key\":\"http.status_code\",\"value\":{\"intValue\":" + code + "}}";
    }

    private static String strings(String key, String... values) {
        StringBuilder b = new StringBuilder(",{\"key\":\"" + key + "\",\"value\":{\"arrayValue\":{\"values\":[");
        for (int i = 0; i < values.length; i++) {
            b.append(i == 0 ? "" : ",").append("{\"stringValue\":\"").append(values[i]).append("\"}");
        }
        return b.append("]}}}").toString();
    }

    private static String export(String scope, String... spans) {
        return "{\"resourceSpans\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":"
                + "{\"stringValue\":\"shop\"}}]},\"scopeSpans\":[{\"scope\":{\"name\":\"" + scope + "\"},\"spans\":["
                + String.join(",", spans) + "]}]}]}";
    }

    private static JsonNode audit(String export, int exit) throws IOException {
        CliRunner.Result r = CliRunner.runWithStdin(export, "audit", "-");
        assertThat(r.err()).isEmpty();
        assertThat(r.exit()).as(r.out()).isEqualTo(exit);
        return JSON.readTree(r.out());
    }

    private static List<String> rules(JsonNode report) {
        TreeSet<String> rules = new TreeSet<>();
        report.get("findings").forEach(f -> rules.add(f.get("rule").asText()));
        return new ArrayList<>(rules);
    }

    private static String python(String... spans) {
        return export("opentelemetry.instrumentation.httpx", spans);
    }

    @Test
    void anIgnoredRetryAfterInSecondsOnSiblingResendsIsEarly() throws IOException {
        JsonNode report = audit(python(span(1, 0, 20, "GET", status(429) + strings("http.response.header.retry_after", "2"), ""),
                span(2, 70, 20, "GET", status(200), "")), 2);
        assertThat(report.at("/summary/retries").asInt()).isEqualTo(1);
        assertThat(rules(report)).containsExactly("retry-after/early");
        assertThat(report.at("/findings/0/evidence/grouped_by").asText())
                .isEqualTo("inferred: same parent, method and URL after a failure within 10 s");
    }

    @Test
    void anHonouredRetryAfterInSecondsIsClean() throws IOException {
        JsonNode report = audit(python(span(1, 0, 20, "GET", status(429) + strings("http.response.header.retry_after", "2"), ""),
                span(2, 2_100, 20, "GET", status(200), "")), 0);
        assertThat(report.at("/summary/retries").asInt()).isEqualTo(1);
    }

    @Test
    void anHttpDateSplitAtItsCommaIsJoinedBack() throws IOException {
        String date = strings("http.response.header.retry_after", "Mon", "30 Nov 2026 21:46:03 GMT");
        JsonNode early = audit(python(span(1, 0, 20, "GET", status(503) + date, ""), span(2, 100, 20, "GET", status(200), "")), 2);
        assertThat(rules(early)).containsExactly("retry-after/early");
        JsonNode honoured = audit(python(span(1, 0, 20, "GET", status(503) + date, ""),
                span(2, 3_200, 20, "GET", status(200), "")), 0);
        assertThat(honoured.at("/summary/retries").asInt()).isEqualTo(1);
    }

    @Test
    void aKeylessPostSentAgainAfterATimeoutSeenOnlyInItsExceptionEventIsReported() throws IOException {
        String timedOut = ",\"status\":{\"code\":2},\"events\":[{\"name\":\"exception\",\"attributes\":["
                + "{\"key\":\"exception.type\",\"value\":{\"stringValue\":\"httpx.ReadTimeout\"}},"
                + "{\"key\":\"exception.message\",\"value\":{\"stringValue\":\"timed out\"}}]}]";
        String headers = strings("http.request.header.content_type", "application/json");
        JsonNode report = audit(python(span(1, 0, 1_000, "POST", headers, timedOut),
                span(2, 1_300, 20, "POST", status(201) + headers, "")), 2);
        assertThat(rules(report)).contains("timeout-replay/keyless");
        String keyed = strings("http.request.header.idempotency_key", "k-7");
        JsonNode safe = audit(python(span(1, 0, 1_000, "POST", keyed, timedOut),
                span(2, 1_300, 20, "POST", status(201) + keyed, "")), 2);
        assertThat(safe.at("/summary/retries").asInt()).isEqualTo(1);
        assertThat(rules(safe)).containsExactly("timeout-replay/unreconciled");
    }

    @Test
    void aHintAttributeOfAnUnexpectedTypeIsSkippedWithANoteThatLeavesTheExitCodeAlone() throws IOException {
        String undici = ",{\"key\":\"thread.name\",\"value\":{\"boolValue\":true}}";
        JsonNode report = audit(export("@opentelemetry/instrumentation-undici", span(1, 0, 20, "GET", status(200) + undici, "")), 0);
        JsonNode note = report.at("/inputs/0/notes/0");
        assertThat(note.get("message").asText()).contains("attribute thread.name: expected a stringValue, found a boolValue")
                .contains("only as a hint");
        assertThat(note.get("line").asLong()).isEqualTo(1);
        CliRunner.Result text = CliRunner.runWithStdin(export("x", span(1, 0, 20, "GET", status(200) + undici, "")),
                "audit", "--format", "text", "-");
        assertThat(text.out()).contains("<stdin>:1:").contains(": input note: attribute thread.name");
        CliRunner.Result github = CliRunner.runWithStdin(export("x", span(1, 0, 20, "GET", status(200) + undici, "")),
                "audit", "--format", "github", "-");
        assertThat(github.out()).startsWith("::notice title=retry-audit%3A input note::attribute thread.name");
    }

    @Test
    void aStainlessRetryCounterLinksTheResend() throws IOException {
        JsonNode report = audit(python(
                span(1, 0, 20, "POST", status(429) + strings("http.request.header.x_stainless_retry_count", "0")
                        + strings("http.response.header.retry_after_ms", "1500"), ""),
                span(2, 900, 20, "POST", status(200) + strings("http.request.header.x_stainless_retry_count", "1"), "")), 2);
        assertThat(rules(report)).containsExactly("retry-after/early");
        assertThat(report.at("/summary/retries").asInt()).isEqualTo(1);
        assertThat(report.at("/findings/0/evidence/grouped_by").asText()).isEqualTo("x-stainless-retry-count");
    }

    @Test
    void oneSpanOverAllSendsIsNotedAsUnableToShowRetries() throws IOException {
        JsonNode report = audit(export("io.opentelemetry.apache-httpclient-5.0", span(1, 0, 4_000, "GET", status(200), "")), 0);
        assertThat(report.at("/inputs/0/notes/0/message").asText()).startsWith("the export cannot show retries: ");
    }
}

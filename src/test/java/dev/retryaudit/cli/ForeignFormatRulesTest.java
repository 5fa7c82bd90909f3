package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Audits of OTLP and HAR inputs end to end, each with the exact findings the rules define: a
 * finding the mapping should cause is named, and every other finding fails the test.
 */
class ForeignFormatRulesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final long BASE_MS = 1_788_789_720_000L;

    private static String otlp(String... spans) {
        return "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[" + String.join(",", spans) + "]}]}]}";
    }

    private static String span(String id, String parent, long startMs, long endMs, String... attributes) {
        return "{\"traceId\":\"" + TRACE + "\",\"spanId\":\"" + id + "\",\"parentSpanId\":\"" + parent
                + "\",\"kind\":3,\"startTimeUnixNano\":\"" + (BASE_MS + startMs) + "000000\",\"endTimeUnixNano\":\""
                + (BASE_MS + endMs) + "000000\",\"attributes\":[" + String.join(",", attributes) + "]}";
    }

    private static String str(String key, String value) {
        return "{\"key\":\"" + key + "\",\"value\":{\"stringValue\":\"" + value + "\"}}";
    }

    private static String integer(String key, long value) {
        return "{\"key\":\"" + key + "\",\"value\":{\"intValue\":" + value + "}}";
    }

    private static String[] get(int status, String... more) {
        return Stream.concat(Stream.of(str("http.request.method", "GET"), str("url.full", "https://shop.example/stock"),
                integer("http.response.status_code", status)), Stream.of(more)).toArray(String[]::new);
    }

    private static String har(String... entries) {
        return "{\"log\":{\"version\":\"1.2\",\"entries\":[" + String.join(",", entries) + "]}}";
    }

    private static String post(String started, int status, String key, String body) {
        String headers = key == null ? "" : "{\"name\":\"Idempotency-Key\",\"value\":\"" + key + "\"}";
        String postData = body == null ? "" : ",\"postData\":{\"mimeType\":\"application/json\",\"text\":\"" + body + "\"}";
        return "{\"startedDateTime\":\"" + started + "\",\"time\":" + (status <= 0 ? -1 : 120)
                + ",\"request\":{\"method\":\"POST\",\"url\":\"https://pay.example/v1/charges\",\"headers\":[" + headers + "]"
                + postData + "},\"response\":{\"status\":" + status + ",\"headers\":[]}}";
    }

    private static String get(String started, String url, int status, String responseHeaders) {
        return "{\"startedDateTime\":\"" + started + "\",\"time\":20,\"request\":{\"method\":\"GET\",\"url\":\"" + url
                + "\",\"headers\":[]},\"response\":{\"status\":" + status + ",\"headers\":[" + responseHeaders + "]}}";
    }

    /** Audits {@code input} from stdin and returns the rule id, operation and attempt of every finding. */
    private static List<String> findings(String input, int expectedExit) throws IOException {
        CliRunner.Result r = CliRunner.runWithStdin(input, "audit");
        assertThat(r.err()).isEmpty();
        assertThat(r.exit()).as(r.out()).isEqualTo(expectedExit);
        List<String> out = new ArrayList<>();
        for (JsonNode f : JSON.readTree(r.out()).get("findings")) {
            out.add(f.get("rule").asText() + " " + f.get("operation").asText() + " " + f.get("attempt").asText());
        }
        return out;
    }

    @Test
    void aClientBack300msAfterRetryAfter2IsEarly() throws IOException {
        String trace = otlp(
                span("1111aaaa2222bb01", "", 0, 40, get(503, "{\"key\":\"http.response.header.retry-after\","
                        + "\"value\":{\"arrayValue\":{\"values\":[{\"stringValue\":\"2\"}]}}}")),
                span("1111aaaa2222bb02", "", 340, 360, get(200, integer("http.request.resend_count", 1))));
        assertThat(findings(trace, 2)).containsExactly("retry-after/early " + TRACE + "/1111aaaa2222bb01 2");
    }

    @Test
    void aClientThatWaitedOutRetryAfterIsClean() throws IOException {
        String trace = otlp(
                span("1111aaaa2222bb01", "", 0, 40, get(503, "{\"key\":\"http.response.header.retry-after\","
                        + "\"value\":{\"arrayValue\":{\"values\":[{\"stringValue\":\"2\"}]}}}")),
                span("1111aaaa2222bb02", "", 2040, 2060, get(200, integer("http.request.resend_count", 1))));
        assertThat(findings(trace, 0)).isEmpty();
    }

    @Test
    void aRedirectAndAnAuthChallengeAreNotRetries() throws IOException {
        // Counted as retries, four sends in 20 ms would break the attempt budget and the backoff.
        String trace = otlp(
                span("1111aaaa2222bb01", "", 0, 5, get(302)),
                span("1111aaaa2222bb02", "", 6, 10, get(401, integer("http.request.resend_count", 1))),
                span("1111aaaa2222bb03", "", 11, 15, get(302, integer("http.request.resend_count", 2))),
                span("1111aaaa2222bb04", "", 16, 20, get(200, integer("http.request.resend_count", 3))));
        CliRunner.Result r = CliRunner.runWithStdin(trace, "audit");
        assertThat(r.exit()).isZero();
        assertThat(JSON.readTree(r.out()).get("summary").get("retries").asInt()).isZero();
    }

    @Test
    void moreResendsThanTheBudgetAreMaxAttempts() throws IOException {
        String trace = otlp(
                span("1111aaaa2222bb01", "", 0, 10, get(500)),
                span("1111aaaa2222bb02", "", 1000, 1010, get(500, integer("http.request.resend_count", 1))),
                span("1111aaaa2222bb03", "", 2000, 2010, get(500, integer("http.request.resend_count", 2))),
                span("1111aaaa2222bb04", "", 3000, 3010, get(200, integer("http.request.resend_count", 3))));
        assertThat(findings(trace, 2)).containsExactly("budget/max-attempts " + TRACE + "/1111aaaa2222bb01 4");
    }

    @Test
    void httpRetriesInsideARetriedToolCallAreAmplification() throws IOException {
        String[] tool = {str("gen_ai.operation.name", "execute_tool"), str("gen_ai.tool.name", "check_stock"),
            str("gen_ai.tool.call.id", "call_3")};
        String[] failedTool = Stream.concat(Stream.of(tool), Stream.of(str("error.type", "ValueError")))
                .toArray(String[]::new);
        String trace = otlp(
                span("2222bbbb3333cc01", "", 0, 100, failedTool),
                span("2222bbbb3333cc02", "", 200, 3000, tool),
                span("1111aaaa2222bb01", "2222bbbb3333cc02", 210, 300, get(500)),
                span("1111aaaa2222bb02", "2222bbbb3333cc02", 1300, 1400, get(200, integer("http.request.resend_count", 1))));
        assertThat(findings(trace, 0)).containsExactly("budget/amplification " + TRACE + "/1111aaaa2222bb01 null");
    }

    @Test
    void explicitCommitStatesAreAuditedAndAMissingOneIsAFinding() throws IOException {
        String[] first = {str("retry_audit.operation_id", "charge-9"), str("gen_ai.tool.name", "charge_cart"),
            str("retry_audit.idempotency_key", "k-9"), str("retry_audit.commit_state", "committed"),
            str("retry_audit.retry_reason", "")};
        String[] second = {str("retry_audit.operation_id", "charge-9"), str("retry_audit.idempotency_key", "k-9"),
            str("retry_audit.retry_reason", "agent retried")};
        String trace = otlp(span("1111aaaa2222bb01", "", 0, 10, first), span("1111aaaa2222bb02", "", 500, 510, second));
        assertThat(findings(trace, 2)).containsExactlyInAnyOrder(
                "effect-verification/retry-after-commit charge-9 2",
                "effect-verification/missing-state charge-9 2");
    }

    @Test
    void aDuplicatePostAfterAFailedOneIsATimeoutReplay() throws IOException {
        String input = har(post("2026-09-07T14:02:00Z", 0, "k-1", "{}"), post("2026-09-07T14:02:05Z", 201, "k-1", "{}"));
        assertThat(findings(input, 2)).containsExactly("timeout-replay/unreconciled <stdin>#/log/entries/0 2");
    }

    @Test
    void aDuplicatePostWithoutAKeyIsKeyless() throws IOException {
        String input = har(post("2026-09-07T14:02:00Z", -1, null, null), post("2026-09-07T14:02:05Z", 201, null, null));
        assertThat(findings(input, 2)).containsExactly("timeout-replay/keyless <stdin>#/log/entries/0 2");
    }

    @Test
    void anUnchangedBodySentAgainAfter422IsAValidationRepeat() throws IOException {
        String same = har(post("2026-09-07T14:02:00Z", 422, "k-1", "{\\\"qty\\\": -1}"),
                post("2026-09-07T14:02:05Z", 422, "k-1", "{\\\"qty\\\": -1}"));
        assertThat(findings(same, 2)).containsExactly("validation-repeat/identical <stdin>#/log/entries/0 2");
        String corrected = har(post("2026-09-07T14:02:00Z", 422, null, "{\\\"qty\\\": -1}"),
                post("2026-09-07T14:02:05Z", 201, null, "{\\\"qty\\\": 1}"));
        assertThat(findings(corrected, 0)).isEmpty();
        // Correcting the body under the same key is a different fault: the key now names two payloads.
        String reused = har(post("2026-09-07T14:02:00Z", 422, "k-1", "{\\\"qty\\\": -1}"),
                post("2026-09-07T14:02:05Z", 201, "k-1", "{\\\"qty\\\": 1}"));
        assertThat(findings(reused, 2)).containsExactly("effect-verification/key-reused <stdin>#/log/entries/0 2");
    }

    @Test
    void theRulesThatDemandAFieldNeitherFormatCarriesStaySilent() throws IOException {
        // No retry_reason, commit_state or span ids in a HAR; no retry_reason or commit_state in plain OTLP.
        String input = har(post("2026-09-07T14:02:00Z", 503, "k-1", null), post("2026-09-07T14:02:01Z", 201, "k-1", null));
        assertThat(findings(input, 0)).isEmpty();
        String trace = otlp(span("1111aaaa2222bb01", "", 0, 10, get(503)),
                span("1111aaaa2222bb02", "", 900, 910, get(200, integer("http.request.resend_count", 1))));
        assertThat(findings(trace, 0)).isEmpty();
    }

    @Test
    void aFetchLoopBackEarlyAfterRetryAfterIsEarlyWhateverTrafficStandsBetween() throws IOException {
        String retryAfter = "{\"name\":\"retry-after\",\"value\":\"2\"}";
        String page = har(get("2026-09-07T14:02:00.000Z", "https://shop.example/api/cart", 429, retryAfter),
                get("2026-09-07T14:02:00.030Z", "https://shop.example/logo.png", 200, ""),
                get("2026-09-07T14:02:00.300Z", "https://shop.example/api/cart", 200, ""));
        assertThat(findings(page, 2)).containsExactly("retry-after/early <stdin>#/log/entries/0 2");
        String patient = har(get("2026-09-07T14:02:00.000Z", "https://shop.example/api/cart", 429, retryAfter),
                get("2026-09-07T14:02:00.030Z", "https://shop.example/logo.png", 200, ""),
                get("2026-09-07T14:02:02.100Z", "https://shop.example/api/cart", 200, ""));
        assertThat(findings(patient, 0)).isEmpty();
    }

    @Test
    void aRetryAfterInMillisecondsCountsInWholeSeconds() throws IOException {
        String retryAfterMs = "{\"name\":\"Retry-After-Ms\",\"value\":\"1500\"}";
        String early = har(get("2026-09-07T14:02:00.000Z", "https://shop.example/api/cart", 429, retryAfterMs),
                get("2026-09-07T14:02:00.500Z", "https://shop.example/api/cart", 200, ""));
        assertThat(findings(early, 2)).containsExactly("retry-after/early <stdin>#/log/entries/0 2");
        String waited = har(get("2026-09-07T14:02:00.000Z", "https://shop.example/api/cart", 429, retryAfterMs),
                get("2026-09-07T14:02:01.200Z", "https://shop.example/api/cart", 200, ""));
        assertThat(findings(waited, 0)).as("1.5 s read as 1 s, never as 2").isEmpty();
    }

    @Test
    void aPagePollingFiveTimesIsNotRetrying() throws IOException {
        List<String> polls = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            polls.add(get("2026-09-07T14:02:0" + i + ".000Z", "https://shop.example/notifications", 200, ""));
        }
        CliRunner.Result r = CliRunner.runWithStdin(har(polls.toArray(String[]::new)), "audit");
        assertThat(r.exit()).isZero();
        assertThat(JSON.readTree(r.out()).at("/summary/retries").asInt()).isZero();
    }
}

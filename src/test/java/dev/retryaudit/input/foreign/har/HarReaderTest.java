package dev.retryaudit.input.foreign.har;

import dev.retryaudit.input.Inputs;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Effect;
import dev.retryaudit.model.Field;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Outcome;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import static org.assertj.core.api.Assertions.assertThat;

/** The HAR reader: ordering, grouping of consecutive requests, the fields each entry maps to, and what it refuses. */
class HarReaderTest {
    private static final String ENTRY_PATH = "$.log.entries[0]";

    static String har(String... entries) {
        return "{\"log\":{\"version\":\"1.2\",\"creator\":{\"name\":\"t\",\"version\":\"1\"},\"entries\":["
                + String.join(",", entries) + "]}}";
    }

    static String entry(String started, String method, String url, int status, String requestHeaders,
            String responseHeaders) {
        return "{\"startedDateTime\":\"" + started + "\",\"time\":10,\"request\":{\"method\":\"" + method
                + "\",\"url\":\"" + url + "\",\"headers\":[" + requestHeaders + "]},\"response\":{\"status\":" + status
                + ",\"headers\":[" + responseHeaders + "]}}";
    }

    static String get(String started, String url, int status) {
        return entry(started, "GET", url, status, "", "");
    }

    static String header(String name, String value) {
        return "{\"name\":\"" + name + "\",\"value\":\"" + value + "\"}";
    }

    static List<Operation> read(String text) throws InputException {
        return Inputs.read(InputFormat.HAR, text);
    }

    static long at(String instant) {
        return Instant.parse(instant).toEpochMilli();
    }

    static String resource(String name) throws IOException {
        try (InputStream in = HarReaderTest.class.getResourceAsStream("/input/har/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void readsAnExportWithEntriesOutOfOrder() throws Exception {
        List<Operation> ops = read(resource("checkout.har"));

        assertThat(ops).extracting(Operation::id).containsExactly("<stdin>#/log/entries/0", "<stdin>#/log/entries/1");
        Operation charge = ops.get(0);
        assertThat(charge.tool()).isEqualTo("POST pay.example");
        assertThat(charge.method()).isEqualTo("POST");
        assertThat(charge.target()).isEqualTo("https://pay.example/v1/charges");
        assertThat(charge.effect()).isNull();
        assertThat(charge.impliedEffect()).isEqualTo(Effect.WRITE);
        assertThat(charge.idempotencyKey()).isEqualTo("k-1");
        assertThat(charge.runId()).isEqualTo("page_1");
        assertThat(charge.serverClock()).isFalse();
        assertThat(charge.carried()).containsExactlyInAnyOrder(Field.IDEMPOTENCY_KEY, Field.REQUEST_HASH);
        assertThat(charge.location().line()).isEqualTo(17);
        assertThat(charge.location().pointer()).isEqualTo("/log/entries/0");

        Attempt failed = charge.attempts().get(0);
        assertThat(failed.attemptId()).isEqualTo(1);
        assertThat(failed.outcome()).isEqualTo(Outcome.CONNECTION_ERROR);
        assertThat(failed.status()).isNull();
        assertThat(failed.hasDuration()).isFalse();
        assertThat(failed.startMillis()).isEqualTo(at("2026-09-07T14:02:00Z"));
        assertThat(failed.spanId()).isNull();
        Attempt created = charge.attempts().get(1);
        assertThat(created.attemptId()).isEqualTo(2);
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(created.durationMillis()).isEqualTo(500.5);
        assertThat(created.responseMillis()).isEqualTo(at("2026-09-07T14:02:08.901Z"));
        assertThat(created.responseDate()).isEqualTo("Mon, 07 Sep 2026 14:02:08 GMT");
        assertThat(created.idempotencyKey()).isEqualTo("k-1");
        assertThat(created.requestHash()).isEqualTo(failed.requestHash()).startsWith("sha256:");
        assertThat(created.location().pointer()).isEqualTo("/log/entries/2");

        Operation inventory = ops.get(1);
        assertThat(inventory.tool()).isEqualTo("GET shop.example");
        assertThat(inventory.impliedEffect()).isEqualTo(Effect.READ);
        assertThat(inventory.carried()).containsExactly(Field.IDEMPOTENCY_KEY);
        assertThat(inventory.idempotencyKey()).isNull();
        assertThat(inventory.attempts()).extracting(Attempt::status).containsExactly(503, 200);
        assertThat(inventory.attempts()).extracting(Attempt::outcome).containsExactly(Outcome.ERROR, Outcome.SUCCESS);
        Attempt limited = inventory.attempts().get(0);
        assertThat(limited.retryAfter()).isEqualTo("2");
        assertThat(limited.responseDate()).isEqualTo("Mon, 07 Sep 2026 14:02:09 GMT");
        assertThat(limited.startMillis()).isEqualTo(at("2026-09-07T14:02:09Z"));
    }

    @Test
    void onlyConsecutiveRequestsForTheSameMethodAndUrlAreOneOperation() throws Exception {
        List<Operation> ops = read(har(
                get("2026-09-07T14:00:00Z", "https://a.example/x", 503),
                get("2026-09-07T14:00:01Z", "https://a.example/x", 200),
                get("2026-09-07T14:00:02Z", "https://a.example/y", 200),
                get("2026-09-07T14:00:03Z", "https://a.example/x", 200),
                entry("2026-09-07T14:00:04Z", "HEAD", "https://a.example/x", 200, "", "")));
        assertThat(ops).extracting(op -> op.attempts().size()).containsExactly(2, 1, 1, 1);
        assertThat(ops).extracting(Operation::method).containsExactly("GET", "GET", "GET", "HEAD");
    }

    @Test
    void differentIdempotencyKeysAreDifferentOperationsButAMissingKeyJoins() throws Exception {
        String url = "https://pay.example/charges";
        List<Operation> ops = read(har(
                entry("2026-09-07T14:00:00Z", "POST", url, 500, header("Idempotency-Key", "a"), ""),
                entry("2026-09-07T14:00:01Z", "POST", url, 500, "", ""),
                entry("2026-09-07T14:00:02Z", "POST", url, 200, header("IDEMPOTENCY-KEY", "a"), ""),
                entry("2026-09-07T14:00:03Z", "POST", url, 200, header("idempotency-key", "b"), "")));
        assertThat(ops).extracting(op -> op.attempts().size()).containsExactly(3, 1);
        assertThat(ops).extracting(Operation::idempotencyKey).containsExactly("a", "b");
        assertThat(ops.get(0).attempts()).extracting(Attempt::idempotencyKey).containsExactly("a", null, "a");
    }

    @Test
    void entriesStartingAtTheSameTimeKeepTheirFileOrder() throws Exception {
        List<Operation> ops = read(har(
                get("2026-09-07T14:00:05Z", "https://a.example/late", 200),
                get("2026-09-07T14:00:00Z", "https://a.example/x", 500),
                get("2026-09-07T14:00:00Z", "https://a.example/y", 500),
                get("2026-09-07T14:00:00.000Z", "https://a.example/x", 200)));
        assertThat(ops).extracting(Operation::target).containsExactly(
                "https://a.example/x", "https://a.example/y", "https://a.example/x", "https://a.example/late");
    }

    @Test
    void failedRequestsAreConnectionErrorsWhateverTheExporterWrote() throws Exception {
        String noResponse = "{\"startedDateTime\":\"2026-09-07T14:00:03Z\",\"time\":-1,"
                + "\"request\":{\"method\":\"GET\",\"url\":\"https://a.example/3\"}}";
        String nullResponse = "{\"startedDateTime\":\"2026-09-07T14:00:04Z\",\"time\":-1.0,"
                + "\"request\":{\"method\":\"GET\",\"url\":\"https://a.example/4\",\"headers\":null},\"response\":null}";
        List<Operation> ops = read(har(
                get("2026-09-07T14:00:01Z", "https://a.example/1", -1),
                get("2026-09-07T14:00:02Z", "https://a.example/2", 0),
                noResponse, nullResponse));
        assertThat(ops).extracting(op -> op.attempts().get(0).outcome()).containsOnly(Outcome.CONNECTION_ERROR);
        assertThat(ops).extracting(op -> op.attempts().get(0).status()).containsOnlyNulls();
        assertThat(ops.get(2).attempts().get(0).duration()).isEmpty();
    }

    @Test
    void headerNamesMatchWhateverTheirCaseAndTheFirstValueCounts() throws Exception {
        Attempt a = read(har(entry("2026-09-07T14:00:00Z", "GET", "https://a.example/", 429, "",
                header("retry-after", "Wed, 21 Oct 2026 07:28:00 GMT") + "," + header("Retry-After", "5") + ","
                        + "{\"name\":\"x-unused\",\"value\":7},{\"name\":\"DATE\",\"value\":\"d\",\"comment\":\"c\"}")))
                .get(0).attempts().get(0);
        assertThat(a.retryAfter()).isEqualTo("Wed, 21 Oct 2026 07:28:00 GMT");
        assertThat(a.responseDate()).isEqualTo("d");
    }

    @Test
    void anAuthChallengeAnsweredAtOnceIsOneAttempt() throws Exception {
        Operation op = read(har(
                get("2026-09-07T14:00:00Z", "https://a.example/x", 401),
                get("2026-09-07T14:00:00.050Z", "https://a.example/x", 200))).get(0);
        assertThat(op.attempts()).singleElement().satisfies(a -> {
            assertThat(a.attemptId()).isEqualTo(1);
            assertThat(a.status()).isEqualTo(200);
            assertThat(a.startMillis()).isEqualTo(at("2026-09-07T14:00:00Z"));
            assertThat(a.durationMillis()).isEqualTo(60.0);
        });
    }

    @Test
    void customAndUnusedFieldsAreIgnored() throws Exception {
        String e = "{\"_priority\":\"High\",\"pageref\":null,\"startedDateTime\":\"2026-09-07T14:00:00Z\","
                + "\"connection\":\"443\",\"serverIPAddress\":\"::1\",\"timings\":{\"wait\":-1},\"cache\":{},"
                + "\"request\":{\"method\":\"GET\",\"url\":\"https://a.example/\",\"cookies\":[{\"x\":1}],"
                + "\"postData\":{\"mimeType\":\"text/plain\",\"params\":[]},\"_x\":[]},"
                + "\"response\":{\"status\":204,\"content\":{\"size\":-1},\"_transferSize\":0}}";
        Operation op = read("{\"_meta\":1,\"log\":{\"pages\":[{}],\"entries\":[" + e + "],\"_x\":true}}").get(0);
        assertThat(op.runId()).isNull();
        assertThat(op.attempts().get(0).status()).isEqualTo(204);
        assertThat(op.attempts().get(0).requestHash()).isNull();
        assertThat(op.carried()).containsExactly(Field.IDEMPOTENCY_KEY);
    }

    @Test
    void anEmptyLogHasNoOperations() throws Exception {
        assertThat(read("{\"log\":{\"entries\":[]}}")).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{}|$|missing required field log: not a HAR document",
        "[]|$|expected a HAR document (a JSON object), found an array",
        "{\"log\":[]}|$.log|expected the HAR log (a JSON object), found an array",
        "{\"log\":{}}|$.log|missing required field entries",
        "{\"log\":{\"entries\":{}}}|$.log.entries|expected the HAR entries (a JSON array), found an object",
        "{\"log\":{\"entries\":[1]}}|$.log.entries[0]|expected a HAR entry (a JSON object), found an integer",
        "{\"log\":{\"entries\":[{\"request\":{\"method\":\"GET\",\"url\":\"u\"}}]}}|$.log.entries[0]|missing required field startedDateTime",
        "{\"log\":{\"entries\":[{\"startedDateTime\":\"2026-09-07T14:00:00Z\"}]}}|$.log.entries[0]|missing required field request",
        "{\"log\":{\"entries\":[{\"startedDateTime\":\"2026-09-07T14:00:00.000\"}]}}|$.log.entries[0].startedDateTime|a timestamp needs an offset (Z or +HH:MM); local times are ambiguous",
        "{\"log\":{\"entries\":[{\"startedDateTime\":1662}]}}|$.log.entries[0].startedDateTime|expected a string, found an integer",
        "{\"log\":{\"entries\":[{\"time\":\"-1\"}]}}|$.log.entries[0].time|expected a number, found a string",
        "{\"log\":{\"entries\":[{\"time\":-5}]}}|$.log.entries[0].time|number out of range: must be between 0 and 1e15",
        "{\"log\":{\"entries\":[{\"pageref\":1}]}}|$.log.entries[0].pageref|expected a string, found an integer",
        "{\"log\":{\"entries\":[{\"request\":\"GET\"}]}}|$.log.entries[0].request|expected the request (a JSON object), found a string",
        "{\"log\":{\"entries\":[{\"request\":{\"url\":\"u\"}}]}}|$.log.entries[0].request|missing required field method",
        "{\"log\":{\"entries\":[{\"request\":{\"method\":\"GET\"}}]}}|$.log.entries[0].request|missing required field url",
        "{\"log\":{\"entries\":[{\"request\":{\"method\":[]}}]}}|$.log.entries[0].request.method|expected a string, found an array",
        "{\"log\":{\"entries\":[{\"request\":{\"headers\":{}}}]}}|$.log.entries[0].request.headers|expected the headers (a JSON array), found an object",
        "{\"log\":{\"entries\":[{\"request\":{\"headers\":[\"Accept\"]}}]}}|$.log.entries[0].request.headers[0]|expected a header {\"name\": ..., \"value\": ...} (a JSON object), found a string",
        "{\"log\":{\"entries\":[{\"request\":{\"headers\":[{\"name\":1}]}}]}}|$.log.entries[0].request.headers[0].name|expected a string, found an integer",
        "{\"log\":{\"entries\":[{\"request\":{\"headers\":[{\"value\":1,\"name\":\"Idempotency-Key\"}]}}]}}|$.log.entries[0].request.headers[0].value|expected a string, found an integer",
        "{\"log\":{\"entries\":[{\"request\":{\"postData\":{\"text\":{}}}}]}}|$.log.entries[0].request.postData.text|expected a string, found an object",
        "{\"log\":{\"entries\":[{\"response\":{\"status\":700}}]}}|$.log.entries[0].response.status|expected an HTTP status from 100 to 599 (or -1 or 0 for a failed request)",
        "{\"log\":{\"entries\":[{\"response\":{\"status\":\"200\"}}]}}|$.log.entries[0].response.status|expected an integer, found a string",
        "{\"log\":{\"entries\":[{\"response\":{\"status\":200.5}}]}}|$.log.entries[0].response.status|expected an integer, found a fractional number",
        "{\"log\":{\"entries\":[{\"response\":{\"headers\":[{\"name\":\"Retry-After\",\"value\":120}]}}]}}|$.log.entries[0].response.headers[0].value|expected a string, found an integer",
    })
    void usedFieldsAreCheckedStrictly(String text, String path, String message) {
        InputException e = Inputs.rejected(InputFormat.HAR, text);
        assertThat(e.kind()).isEqualTo(InputException.Kind.REJECTED);
        assertThat(e.message()).isEqualTo(path + ": " + message);
    }

    @Test
    void errorsCarryTheLineAndColumn() {
        String text = "{\"log\": {\"entries\": [\n  {\"startedDateTime\": \"2026-09-07T14:00:00Z\",\n"
                + "   \"request\": {\"method\": \"GET\", \"url\": \"u\"},\n   \"response\": {\"status\": 999}}]}}";
        InputException e = Inputs.rejected(InputFormat.HAR, text);
        assertThat(e.diagnostic()).isEqualTo("<stdin>:4:27: error: " + ENTRY_PATH
                + ".response.status: expected an HTTP status from 100 to 599 (or -1 or 0 for a failed request)");
    }

    @Test
    void truncatedOrTrailingOrEmptyInputIsRejected() {
        String whole = har(get("2026-09-07T14:00:00Z", "https://a.example/", 200));
        assertThat(Inputs.rejected(InputFormat.HAR, whole.substring(0, whole.length() - 3)).message())
                .contains("malformed JSON: Unexpected end-of-input");
        assertThat(Inputs.rejected(InputFormat.HAR, whole + "\n{}").message())
                .isEqualTo("$: trailing content after the JSON document");
        assertThat(Inputs.rejected(InputFormat.HAR, "\n").message()).isEqualTo("$: empty input: expected a HAR document");
    }

    @Test
    void theAttemptLimitAppliesToEachOperation() {
        String text = har(get("2026-09-07T14:00:00Z", "https://a.example/", 500),
                get("2026-09-07T14:00:01Z", "https://a.example/", 500),
                get("2026-09-07T14:00:02Z", "https://a.example/", 500));
        InputException e = Inputs.rejected(InputFormat.HAR, text, new Limits(1L << 30, 10, 2, 1000, 64));
        assertThat(e.message()).isEqualTo("$.log.entries[2]: operation has more than 2 attempts, "
                + "the attempts-per-operation limit");
    }
}

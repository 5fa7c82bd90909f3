package dev.retryaudit.input.foreign.zipkin;

import dev.retryaudit.input.Inputs;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Outcome;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import static org.assertj.core.api.Assertions.assertThat;

/** Zipkin v2 JSON: its shapes, the mapping of its fields and tags, and what it rejects. */
class ZipkinReaderTest {
    private static final String T = "7d1c4e9a2b3f4a5c";

    private static String resource(String name) throws IOException {
        try (InputStream in = ZipkinReaderTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String span(String id, long micros, String tags) {
        return "{\"traceId\":\"" + T + "\",\"parentId\":\"c1a9e2f4b7d30516\",\"id\":\"" + id
                + "\",\"kind\":\"CLIENT\",\"name\":\"get\",\"timestamp\":" + micros + ",\"duration\":40000,"
                + "\"localEndpoint\":{\"serviceName\":\"checkout\"},\"tags\":{" + tags + "}}";
    }

    private static final String GET = "\"http.method\":\"GET\",\"http.url\":\"https://api.example/q\"";

    @Test
    void aRetryAfter429IsOneOperationOfTwoAttemptsWithTheTagsMapped() throws Exception {
        List<Operation> ops = Inputs.read("early.json", resource("/input/zipkin/retry-429-early.json"));
        assertThat(ops).hasSize(2);
        Operation op = ops.get(0);
        assertThat(op.id()).isEqualTo("0000000000000000" + T + "/1111aaaa2222bb01");
        assertThat(op.method()).isEqualTo("GET");
        assertThat(op.target()).isEqualTo("https://api.example/v1/quota");
        assertThat(op.tool()).isEqualTo("GET api.example");
        assertThat(op.attempts()).extracting(Attempt::status).containsExactly(429, 200);
        Attempt first = op.attempts().get(0);
        assertThat(first.retryAfter()).isEqualTo("2");
        assertThat(first.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(first.startMillis()).isEqualTo(1788789720000L);
        assertThat(first.hasDuration()).isFalse();
        assertThat(first.endMillis()).isEqualTo(1788789720040L);
        assertThat(op.attempts().get(1).startMillis()).isEqualTo(1788789720340L);
        assertThat(first.location().pointer()).isEqualTo("/1");
        assertThat(first.location().line()).isEqualTo(18);
        assertThat(ops.get(1).target()).isEqualTo("https://cdn.example/logo.png");
    }

    @Test
    void jsonLinesOfSpansReadAsTheArrayDoes() throws Exception {
        List<Operation> array = Inputs.read("early.json", resource("/input/zipkin/retry-429-early.json"));
        List<Operation> lines = Inputs.read("early.jsonl", resource("/input/zipkin/retry-429-early.jsonl"));
        assertThat(lines).extracting(Operation::id).isEqualTo(array.stream().map(Operation::id).toList());
        assertThat(lines.get(0).location().pointer()).isNull();
        assertThat(lines.get(0).location().line()).isEqualTo(2);
    }

    @Test
    void aListOfTracesReadsAsTheArrayOfTheirSpans() throws Exception {
        String array = resource("/input/zipkin/retry-429-early.json").strip();
        List<Operation> spans = Inputs.read(InputFormat.ZIPKIN, array);
        // The query API's /api/v2/traces answer: each trace an array of spans, here the spans in two traces.
        String list = "[" + array.replaceFirst("\\},\\s*\\{", "}],[{") + "]";
        assertThat(list).contains("}],[{");
        List<Operation> traces = Inputs.read(InputFormat.ZIPKIN, list);
        assertThat(traces).extracting(Operation::id).isEqualTo(spans.stream().map(Operation::id).toList()).isNotEmpty();
        assertThat(traces.get(0).location().pointer()).matches("/[0-9]+/[0-9]+");
        InputException e = Inputs.rejected(InputFormat.ZIPKIN, "[[{\"traceId\": 7}]]");
        assertThat(e.path()).isEqualTo("$[0][0].traceId");
    }

    @Test
    void aSingleSpanDocumentIsRead() throws Exception {
        String text = span("1111aaaa2222bb01", 1788789720000000L, GET + ",\"http.status_code\":\"503\"")
                .replace("{\"traceId\"", "{\n\"traceId\"");
        List<Operation> ops = Inputs.read(InputFormat.ZIPKIN, text);
        assertThat(ops).singleElement().satisfies(op -> {
            assertThat(op.attempts().get(0).status()).isEqualTo(503);
            assertThat(op.location().pointer()).isEmpty();
        });
    }

    @Test
    void aBraveClientSpanWithAPathTakesItsMethodFromItsNameAndItsHostFromTheRemoteService() throws Exception {
        String text = "[{\"traceId\":\"" + T + "\",\"id\":\"1111aaaa2222bb01\",\"kind\":\"CLIENT\",\"name\":\"post\","
                + "\"timestamp\":1788789720000000,\"remoteEndpoint\":{\"serviceName\":\"backend\"},"
                + "\"tags\":{\"http.path\":\"/api\",\"error\":\"Read timed out\"}}]";
        Operation op = Inputs.read(InputFormat.ZIPKIN, text).get(0);
        assertThat(op.method()).isEqualTo("POST");
        assertThat(op.target()).isEqualTo("/api");
        assertThat(op.tool()).isEqualTo("POST backend");
        assertThat(op.attempts().get(0).outcome()).isEqualTo(Outcome.TIMEOUT);
    }

    @Test
    void serverSpansAndSpansWithoutAMethodAreNoAttempts() throws Exception {
        String server = "[{\"traceId\":\"" + T + "\",\"id\":\"1111aaaa2222bb01\",\"kind\":\"SERVER\",\"tags\":{" + GET + "}},"
                + "{\"traceId\":\"" + T + "\",\"id\":\"1111aaaa2222bb02\",\"kind\":\"CLIENT\",\"name\":\"query\","
                + "\"tags\":{\"http.path\":\"/x\",\"http.status_code\":[]}}]";
        assertThat(Inputs.read(InputFormat.ZIPKIN, server)).isEmpty();
    }

    @Test
    void otelStyleTagsAndTheStatusCodeTagAreRead() throws Exception {
        String text = "[" + span("1111aaaa2222bb01", 1788789720000000L, "\"http.request.method\":\"PUT\","
                + "\"url.full\":\"https://api.example/q\",\"otel.status_code\":\"ERROR\",\"error.type\":\"java.net.ConnectException\"")
                + "," + span("1111aaaa2222bb02", 1788789721000000L, "\"http.request.method\":\"PUT\","
                + "\"url.full\":\"https://api.example/q\",\"http.request.resend_count\":\"1\",\"http.response.status_code\":\"200\"")
                + "]";
        Operation op = Inputs.read(InputFormat.ZIPKIN, text).get(0);
        assertThat(op.attempts()).extracting(Attempt::outcome).containsExactly(Outcome.CONNECTION_ERROR, Outcome.SUCCESS);
        assertThat(op.groupedBy()).isEqualTo("resend_count");
    }

    @Test
    void headerTagsThatTheCollectorWroteAsJsonArraysAreTheirValues() throws Exception {
        String text = "[" + span("1111aaaa2222bb01", 1788789720000000L, GET + ",\"http.status_code\":\"429\","
                + "\"http.response.header.retry-after\":\"[\\\"Mon\\\", \\\"07 Sep 2026 14:02:05 GMT\\\"]\","
                + "\"http.request.header.idempotency-key\":\"[\\\"k-1\\\"]\",\"http.url.list\":\"[1]\"") + "]";
        Attempt a = Inputs.read(InputFormat.ZIPKIN, text).get(0).attempts().get(0);
        assertThat(a.retryAfter()).isEqualTo("Mon, 07 Sep 2026 14:02:05 GMT");
        assertThat(a.idempotencyKey()).isEqualTo("k-1");
        String notAnArray = text.replace("[\\\"k-1\\\"]", "[k-1]");
        assertThat(Inputs.read(InputFormat.ZIPKIN, notAnArray).get(0).attempts().get(0).idempotencyKey()).isEqualTo("[k-1]");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "\"traceId\":\"xyz\"|$[0].traceId|expected an id of 1 to 32 hexadecimal digits",
        "\"traceId\":\"" + T + "\",\"id\":\"11112222333344445\"|$[0].id|expected an id of 1 to 16 hexadecimal digits",
        "\"traceId\":7|$[0].traceId|expected a string, found an integer",
        "\"kind\":\"client\"|$[0].kind|expected one of CLIENT, SERVER, PRODUCER, CONSUMER",
        "\"timestamp\":-1|$[0].timestamp|number out of range: must be between 0 and 4611686018427387",
        "\"duration\":1.5|$[0].duration|expected an integer, found a fractional number",
        "\"localEndpoint\":[]|$[0].localEndpoint|expected an endpoint (a JSON object), found an array",
        "\"tags\":[]|$[0].tags|expected the tags (an object of strings) (a JSON object), found an array",
    })
    void theFieldsUsedAreCheckedOnEverySpan(String fields, String path, String message) {
        InputException e = Inputs.rejected(InputFormat.ZIPKIN, "[{" + fields + "}]");
        assertThat(e.message()).isEqualTo(path + ": " + message);
    }

    @Test
    void aUsedTagOfTheWrongTypeOrFormIsRejectedAtTheTag() {
        String text = "[" + span("1111aaaa2222bb01", 1, GET + ",\"http.status_code\":200") + "]";
        InputException e = Inputs.rejected(InputFormat.ZIPKIN, text);
        assertThat(e.message()).isEqualTo("$[0].tags['http.status_code']: tag http.status_code: a Zipkin tag is a string, "
                + "found an integer");
        assertThat(e.column()).isEqualTo(text.indexOf("200") + 1);
        InputException notANumber = Inputs.rejected(InputFormat.ZIPKIN,
                "[" + span("1111aaaa2222bb01", 1, GET + ",\"http.status_code\":\"OK\"") + "]");
        assertThat(notANumber.message()).isEqualTo("$[0].tags['http.status_code']: tag http.status_code: expected a decimal integer");
    }

    @Test
    void everySpanNeedsItsIdsAndAnAttemptNonZeroOnes() {
        String text = "[{\"traceId\":\"" + T + "\",\"kind\":\"SERVER\"}]";
        assertThat(Inputs.rejected(InputFormat.ZIPKIN, text).message())
                .isEqualTo("$[0]: missing required field id: not a Zipkin span");
        assertThat(Inputs.rejected(InputFormat.ZIPKIN, "{\"data\":[]}").message())
                .isEqualTo("$: missing required field traceId: not a Zipkin span");
        String zero = "[{\"traceId\":\"" + T + "\",\"id\":\"0\",\"kind\":\"CLIENT\",\"tags\":{" + GET + "}}]";
        assertThat(Inputs.rejected(InputFormat.ZIPKIN, zero).message())
                .isEqualTo("$[0].id: an all-zero id is invalid");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "''|1|empty input: expected Zipkin v2 spans",
        "7|1|expected Zipkin v2 spans (an array of span objects, or a span), found an integer",
        "[{}]\\n[{}] [{}]|2|a second JSON value on one line: JSON Lines hold one span (or array of spans) a line",
        "[\\n{}\\n]\\n[{}]|4|trailing content after the JSON document: a Zipkin file holds one array of spans, or one span (or array) a line",
        "[{}]\\n[\\n{}]|2|a record in JSON Lines must fit on one line; this one spans several",
        "[7]|1|expected a Zipkin span (a JSON object), found an integer",
    })
    void theDocumentShapeIsChecked(String text, int line, String message) {
        InputException e = Inputs.rejected(InputFormat.ZIPKIN, text.replace("\\n", "\n")
                .replace("{}", "{\"traceId\":\"1\",\"id\":\"2\"}"));
        assertThat(e.message()).endsWith(message);
        assertThat(e.line()).isEqualTo(line);
    }

    @Test
    void anOperationOverTheAttemptsLimitIsRejected() throws Exception {
        Limits one = new Limits(Limits.DEFAULTS.bytes(), Limits.DEFAULTS.operations(), 1,
                Limits.DEFAULTS.stringLength(), Limits.DEFAULTS.depth());
        InputException e = Inputs.rejected(InputFormat.ZIPKIN, resource("/input/zipkin/retry-429-early.json"), one);
        assertThat(e.message()).endsWith("the attempts-per-operation limit");
    }

    @Test
    void aSpanWithoutAStatusIsATimeoutOnlyWhereItsProducerRecordsEveryStatus() throws Exception {
        List<Operation> brave = Inputs.read("brave.json", "[" + span("1111aaaa2222bb01", 1788789720000000L, GET) + "]");
        assertThat(brave.get(0).attempts().get(0).outcome()).as("Brave leaves a 2xx untagged").isNull();
        List<Operation> otel = Inputs.read("otel.json", "[" + span("1111aaaa2222bb01", 1788789720000000L,
                GET + ",\"otel.scope.name\":\"@opentelemetry/instrumentation-undici\"") + "]");
        assertThat(otel.get(0).attempts().get(0).outcome()).isEqualTo(Outcome.TIMEOUT);
    }

    @Test
    void anExceptionAnnotationNamesTheFailureOfAnErrorSpan() throws Exception {
        String annotations = ",\"annotations\":[{\"timestamp\":1788789720040000,\"value\":\"\\\"exception\\\":"
                + "{\\\"exception.type\\\":\\\"java.net.SocketTimeoutException\\\"}\"}]";
        String failed = span("1111aaaa2222bb01", 1788789720000000L, GET + ",\"error\":\"\"");
        String withAnnotation = failed.substring(0, failed.length() - 1) + annotations + "}";
        assertThat(Inputs.read("a.json", "[" + withAnnotation + "]").get(0).attempts().get(0).outcome())
                .isEqualTo(Outcome.TIMEOUT);
        assertThat(Inputs.read("b.json", "[" + failed + "]").get(0).attempts().get(0).outcome())
                .as("an error with no response status: whether the request was written is unknown")
                .isEqualTo(Outcome.CONNECTION_ERROR);
        String ok = span("1111aaaa2222bb01", 1788789720000000L, GET + ",\"http.status_code\":\"200\"");
        assertThat(Inputs.read("c.json", "[" + ok.substring(0, ok.length() - 1) + annotations + "}]").get(0)
                .attempts().get(0).outcome()).as("a hint only for a span that failed").isEqualTo(Outcome.SUCCESS);
    }
}

package dev.retryaudit.input.foreign.jaeger;

import dev.retryaudit.input.Inputs;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Limit;
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

/** Jaeger JSON (query API v1, UI): its shapes, the mapping of its typed tags and references, and what it rejects. */
class JaegerReaderTest {
    private static final String T = "7d1c4e9a2b3f4a5c";

    private static String resource(String name) throws IOException {
        try (InputStream in = JaegerReaderTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String tag(String key, String type, String value) {
        return "{\"key\":\"" + key + "\",\"type\":\"" + type + "\",\"value\":" + value + "}";
    }

    private static final String CLIENT_GET = tag("span.kind", "string", "\"client\"") + ","
            + tag("http.method", "string", "\"GET\"") + "," + tag("http.url", "string", "\"https://api.example/q\"");

    private static String span(String id, String tags, String more) {
        return "{\"traceID\":\"" + T + "\",\"spanID\":\"" + id + "\",\"startTime\":1788789720000000,\"duration\":40000,"
                + "\"tags\":[" + tags + "]" + more + "}";
    }

    @Test
    void theQueryApiDocumentIsReadWithProcessesReferencesAndTypedTags() throws Exception {
        List<Operation> ops = Inputs.read("early.json", resource("/input/jaeger/retry-429-early.json"));
        assertThat(ops).hasSize(2);
        Operation op = ops.get(0);
        assertThat(op.id()).isEqualTo("0000000000000000" + T + "/1111aaaa2222bb01");
        assertThat(op.tool()).isEqualTo("GET api.example");
        assertThat(op.attempts()).extracting(Attempt::status).containsExactly(429, 200);
        assertThat(op.attempts().get(0).retryAfter()).isEqualTo("2");
        assertThat(op.attempts().get(0).outcome()).isEqualTo(Outcome.ERROR);
        assertThat(op.attempts().get(0).endMillis()).isEqualTo(1788789720040L);
        assertThat(op.attempts().get(0).location().pointer()).isEqualTo("/data/0/spans/1");
        assertThat(op.groupedBy()).startsWith("inferred");
    }

    @Test
    void aBareTraceWhoseProcessesFollowItsSpansIsRead() throws Exception {
        String text = "{\"traceID\":\"" + T + "\",\"spans\":[" + span("1", CLIENT_GET + ","
                + tag("http.status_code", "int64", "\"503\""), ",\"processID\":\"p1\"")
                + "],\"processes\":{\"p1\":{\"serviceName\":\"checkout\",\"tags\":[]}}}";
        Operation op = Inputs.read(InputFormat.JAEGER, text).get(0);
        assertThat(op.id()).isEqualTo("0000000000000000" + T + "/0000000000000001");
        assertThat(op.attempts().get(0).status()).isEqualTo(503);
        assertThat(op.location().pointer()).isEqualTo("/spans/0");
    }

    @Test
    void anArrayOfSpansWithTheirProcessIsRead() throws Exception {
        String text = "[" + span("1111aaaa2222bb01", CLIENT_GET + "," + tag("error", "bool", "true"),
                ",\"process\":{\"serviceName\":\"checkout\"}") + "]";
        Operation op = Inputs.read(InputFormat.JAEGER, text).get(0);
        assertThat(op.attempts().get(0).outcome()).isEqualTo(Outcome.CONNECTION_ERROR);
        assertThat(op.location().pointer()).isEqualTo("/0");
    }

    @Test
    void theParentIsTheFirstChildOfReferenceInTheTraceElseAFollowsFrom() throws Exception {
        String parent = "{\"traceID\":\"" + T + "\",\"spanID\":\"00000000000000aa\",\"startTime\":1788789710000000,"
                + "\"tags\":[" + CLIENT_GET + "," + tag("http.status_code", "int64", "200") + "]}";
        String refs = ",\"references\":[{\"refType\":\"CHILD_OF\",\"traceID\":\"ff\",\"spanID\":\"bb\"},"
                + "{\"refType\":\"FOLLOWS_FROM\",\"traceID\":\"" + T + "\",\"spanID\":\"cc\"},"
                + "{\"refType\":\"CHILD_OF\",\"traceID\":\"" + T + "\",\"spanID\":\"aa\"}]";
        String child = span("1111aaaa2222bb01", tag("span.kind", "string", "\"client\"") + ","
                + tag("http.method", "string", "\"POST\"") + "," + tag("http.url", "string", "\"https://b.example/\""), refs);
        List<Operation> ops = Inputs.read(InputFormat.JAEGER, "{\"data\":[{\"spans\":[" + parent + "," + child + "]}]}");
        assertThat(ops).hasSize(2);
        assertThat(ops.get(1).parentAttempt()).isNotNull();
        assertThat(ops.get(1).parentOperation()).isEqualTo(ops.get(0).id());
    }

    @Test
    void aFailureLogNamesHowTheRequestFailed() throws Exception {
        String logs = ",\"logs\":[{\"timestamp\":1788789720040000,\"fields\":[{\"key\":\"event\",\"type\":\"string\","
                + "\"value\":\"exception\"},{\"key\":\"exception.type\",\"type\":\"string\",\"value\":\"httpx.ReadTimeout\"}]},"
                + "{\"fields\":7},[]]";
        String failed = span("1", CLIENT_GET + "," + tag("error", "bool", "true"), logs);
        assertThat(Inputs.read(InputFormat.JAEGER, "[" + failed + "]").get(0).attempts().get(0).outcome())
                .isEqualTo(Outcome.TIMEOUT);
        String info = span("1", CLIENT_GET + "," + tag("error", "bool", "true"), logs.replace("\"exception\"", "\"retry\""));
        assertThat(Inputs.read(InputFormat.JAEGER, "[" + info + "]").get(0).attempts().get(0).outcome())
                .as("an error with no response status: whether the request was written is unknown")
                .isEqualTo(Outcome.CONNECTION_ERROR);
    }

    @Test
    void aCauseInAStackTraceLogNamesTheFailureWhereTheTypeDoesNot() throws Exception {
        String logs = ",\"logs\":[{\"timestamp\":1788789720040000,\"fields\":[{\"key\":\"event\",\"type\":\"string\","
                + "\"value\":\"exception\"},{\"key\":\"exception.type\",\"type\":\"string\",\"value\":"
                + "\"org.springframework.web.reactive.function.client.WebClientRequestException\"},{\"key\":"
                + "\"exception.stacktrace\",\"type\":\"string\",\"value\":\"org.springframework.web.reactive.function"
                + ".client.WebClientRequestException\\n\\tat a.B.c(B.java:1)\\nCaused by: io.netty.handler.timeout"
                + ".ReadTimeoutException: null\\n\"}]}]";
        String failed = span("1", CLIENT_GET + "," + tag("error", "bool", "true"), logs);
        assertThat(Inputs.read(InputFormat.JAEGER, "[" + failed + "]").get(0).attempts().get(0).outcome())
                .isEqualTo(Outcome.TIMEOUT);
        String stack = logs.replace("exception.stacktrace", "stack").replace("\"exception\"", "\"error\"");
        String openTracing = span("1", CLIENT_GET + "," + tag("error", "bool", "true"), stack);
        assertThat(Inputs.read(InputFormat.JAEGER, "[" + openTracing + "]").get(0).attempts().get(0).outcome())
                .isEqualTo(Outcome.TIMEOUT);
    }

    @Test
    void theLimitsApply() {
        Limits shortStrings = new Limits(Limits.DEFAULTS.bytes(), Limits.DEFAULTS.operations(),
                Limits.DEFAULTS.attemptsPerOperation(), 10, Limits.DEFAULTS.depth());
        String text = "[" + span("1", CLIENT_GET, "") + "]";
        InputException string = Inputs.rejected(InputFormat.JAEGER, text, shortStrings);
        assertThat(string.message()).endsWith("exceeds the string limit of 10");
        assertThat(string.limit()).isEqualTo(Limit.STRING);
        Limits shallow = new Limits(Limits.DEFAULTS.bytes(), Limits.DEFAULTS.operations(),
                Limits.DEFAULTS.attemptsPerOperation(), Limits.DEFAULTS.stringLength(), 3);
        InputException deep = Inputs.rejected(InputFormat.JAEGER, text, shallow);
        assertThat(deep.message()).contains("the depth limit of 3");
        assertThat(deep.limit()).isEqualTo(Limit.DEPTH);
        Limits oneOperation = new Limits(Limits.DEFAULTS.bytes(), 1, Limits.DEFAULTS.attemptsPerOperation(),
                Limits.DEFAULTS.stringLength(), Limits.DEFAULTS.depth());
        InputException many = Inputs.rejected(InputFormat.JAEGER, "[" + span("1", CLIENT_GET, "") + ","
                + span("2", CLIENT_GET.replace("/q", "/r"), "") + "]", oneOperation);
        assertThat(many.message()).contains("more than 1 operations, the operations limit");
        assertThat(many.limit()).isEqualTo(Limit.OPERATIONS);
    }

    @Test
    void aHeaderTheCollectorWroteAsAJsonArrayIsItsValue() throws Exception {
        String text = "[" + span("1", CLIENT_GET + "," + tag("http.status_code", "int64", "429") + ","
                + tag("http.response.header.retry-after", "string", "\"[\\\"2\\\"]\""), "") + "]";
        assertThat(Inputs.read(InputFormat.JAEGER, text).get(0).attempts().get(0).retryAfter()).isEqualTo("2");
    }

    @Test
    void serverAndUntaggedSpansAreNoAttempts() throws Exception {
        String text = "{\"data\":[{\"spans\":[" + span("1", tag("span.kind", "string", "\"server\"") + ","
                + tag("http.method", "string", "\"GET\""), "") + "," + span("2", tag("peer.ipv4", "int64", "23456") + ","
                + tag("blob", "binary", "\"AAAwOQ==\"") + "," + tag("x", "float64", "\"abc\""), "") + "]}]}";
        assertThat(Inputs.read(InputFormat.JAEGER, text)).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "http.status_code|string|\"OK\"|tag http.status_code: expected a decimal integer",
        "http.status_code|int64|true|tag http.status_code: an int64 tag needs an integer or a decimal string",
        "http.status_code|int64|99999999999999999999|tag http.status_code: int64 out of range: an int64 is a 64-bit integer",
        "http.status_code|int32|200|tag http.status_code: unknown tag type: expected one of string, bool, int64, float64, binary",
        "http.url|string|7|tag http.url: a string tag needs a string value",
        "http.url|bool|true|attribute http.url: expected a stringValue, found a boolValue",
        "span.kind|string|\"CLIENT\"|tag span.kind: expected one of unspecified, internal, server, client, producer, consumer",
    })
    void aUsedTagOfTheWrongTypeIsRejectedAtItsValue(String key, String type, String value, String message) {
        String tags = key.equals("http.url") ? tag("span.kind", "string", "\"client\"") + "," + tag("http.method", "string", "\"GET\"")
                : CLIENT_GET;
        String text = "{\"data\":[{\"spans\":[" + span("1", tags + "," + tag(key, type, value), "") + "]}]}";
        InputException e = Inputs.rejected(InputFormat.JAEGER, text);
        assertThat(e.path()).isEqualTo("$.data[0].spans[0].tags[" + (key.equals("http.url") ? 2 : 3) + "].value");
        assertThat(e.message()).isEqualTo(e.path() + ": " + message.replace("attribute http.url", "tag http.url"));
        assertThat(e.column()).isEqualTo(text.lastIndexOf("\"value\":" + value) + "\"value\":".length() + 1);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"data\":[{\"spans\":[{\"traceID\":\"xyz\"}]}]}|$.data[0].spans[0].traceID|expected an id of 1 to 32 hexadecimal digits",
        "{\"data\":[{\"spans\":[{\"startTime\":-1}]}]}|$.data[0].spans[0].startTime|number out of range: must be between 0 and 4611686018427387",
        "{\"data\":[{\"spans\":[{\"references\":[{\"refType\":\"PARENT\"}]}]}]}|$.data[0].spans[0].references[0].refType|expected CHILD_OF or FOLLOWS_FROM",
        "{\"data\":[{\"spans\":{}}]}|$.data[0].spans|expected the spans (a JSON array), found an object",
        "{\"data\":[{\"processes\":[]}]}|$.data[0].processes|expected the processes (an object of processes by id) (a JSON object), found an array",
        "{\"data\":[7]}|$.data[0]|expected a Jaeger trace (a JSON object), found an integer",
        "{\"data\":[{\"warnings\":[]}]}|$.data[0]|missing required field spans",
        "{\"total\":0}|$|missing required field data (or spans): not Jaeger JSON",
        "{\"data\":[],\"spans\":[]}|$|a Jaeger document holds data (the query API's traces) or is one trace, not both",
        "{\"data\":[]} {}|$|trailing content after the JSON document",
        "7|$|expected Jaeger JSON ({\"data\": [traces]}, a trace, or an array of traces or spans), found an integer",
    })
    void theStructureIsChecked(String text, String path, String message) {
        assertThat(Inputs.rejected(InputFormat.JAEGER, text).message()).isEqualTo(path + ": " + message);
    }

    @Test
    void anArrayOfTracesWithTheFieldsTheUiAddsIsRead() throws Exception {
        String text = "[{\"traceID\":\"" + T + "\",\"startTime\":1788789720000000,\"duration\":40000,\"spans\":["
                + span("1", CLIENT_GET, ",\"processID\":\"p1\"") + "],\"processes\":{\"p1\":{\"serviceName\":\"a\"}}}]";
        assertThat(Inputs.read(InputFormat.JAEGER, text)).singleElement()
                .satisfies(op -> assertThat(op.location().pointer()).isEqualTo("/0/spans/0"));
    }

    @Test
    void anAttemptsProcessMustBeOneOfItsTrace() {
        String text = "{\"data\":[{\"spans\":[" + span("1", CLIENT_GET, ",\"processID\":\"p9\"")
                + "],\"processes\":{\"p1\":{\"serviceName\":\"checkout\"}}}]}";
        InputException e = Inputs.rejected(InputFormat.JAEGER, text);
        assertThat(e.message()).isEqualTo("$.data[0].spans[0].processID: processID names no process of this trace");
        assertThat(e.column()).isEqualTo(text.indexOf("\"p9\"") + 1);
    }

    @Test
    void everySpanNeedsItsIds() {
        assertThat(Inputs.rejected(InputFormat.JAEGER, "[{\"traceId\":\"1\",\"id\":\"2\"}]").message())
                .isEqualTo("$[0]: missing required field traceID: not a Jaeger span");
        assertThat(Inputs.rejected(InputFormat.JAEGER, "{\"spans\":[{\"traceID\":\"1\"}]}").message())
                .isEqualTo("$.spans[0]: missing required field spanID: not a Jaeger span");
    }

    @Test
    void emptyInputIsRejected() {
        assertThat(Inputs.rejected(InputFormat.JAEGER, " ").message()).isEqualTo("$: empty input: expected Jaeger JSON");
    }
}

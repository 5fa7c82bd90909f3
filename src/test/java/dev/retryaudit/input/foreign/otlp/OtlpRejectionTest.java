package dev.retryaudit.input.foreign.otlp;

import dev.retryaudit.input.Inputs;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Limits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import static dev.retryaudit.input.foreign.otlp.OtlpReaderTest.T;
import static dev.retryaudit.input.foreign.otlp.OtlpReaderTest.export;
import static dev.retryaudit.input.foreign.otlp.OtlpReaderTest.get;
import static dev.retryaudit.input.foreign.otlp.OtlpReaderTest.integer;
import static dev.retryaudit.input.foreign.otlp.OtlpReaderTest.span;
import static dev.retryaudit.input.foreign.otlp.OtlpReaderTest.str;
import static org.assertj.core.api.Assertions.assertThat;

/** What the OTLP reader refuses: the fields it uses, checked strictly, with the place and path of the fault. */
class OtlpRejectionTest {
    private static final String SPAN_PATH = "$.resourceSpans[0].scopeSpans[0].spans[0]";
    private static final String GET = str("http.request.method", "GET");

    private static InputException rejected(String text) {
        InputException e = Inputs.rejected(InputFormat.OTLP, text);
        assertThat(e.kind()).isEqualTo(InputException.Kind.REJECTED);
        return e;
    }

    private static String spanWith(String fields) {
        return export("{" + fields + ",\"attributes\":[" + GET + "]}");
    }

    private static int col(String text, String needle) {
        int i = text.indexOf(needle);
        assertThat(i).as(needle).isNotNegative();
        return i + 1;
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "\"traceId\":\"xyz\",\"spanId\":\"1111aaaa2222bb01\"|traceId|expected 32 hexadecimal digits (16 bytes), or the 16 bytes in base64",
        "\"traceId\":\"7d1c4e9a2b3f4a5c8e6d0f1a2b3c4d5\",\"spanId\":\"1111aaaa2222bb01\"|traceId|expected 32 hexadecimal digits (16 bytes), or the 16 bytes in base64",
        "\"traceId\":\"7d1c4e9a2b3f4a5c8e6d0f1a2b3c4d5g\",\"spanId\":\"1111aaaa2222bb01\"|traceId|expected 32 hexadecimal digits (16 bytes), or the 16 bytes in base64",
        "\"traceId\":\"\",\"spanId\":\"1111aaaa2222bb01\"|traceId|traceId is empty: an attempt span needs its traceId",
        "\"traceId\":\"00000000000000000000000000000000\",\"spanId\":\"1111aaaa2222bb01\"|traceId|an all-zero traceId is invalid",
        "\"traceId\":\"" + T + "\",\"spanId\":\"1111aaaa2222bb0\"|spanId|expected 16 hexadecimal digits (8 bytes), or the 8 bytes in base64",
        "\"traceId\":\"" + T + "\",\"spanId\":\"0000000000000000\"|spanId|an all-zero spanId is invalid",
        "\"traceId\":\"" + T + "\",\"spanId\":\"1111aaaa2222bb01\",\"parentSpanId\":\"zz\"|parentSpanId|expected 16 hexadecimal digits (8 bytes), or the 8 bytes in base64",
    })
    void badIdsOfAnAttemptSpanAreRejectedAtTheId(String fields, String field, String message) {
        String text = spanWith(fields);
        InputException e = rejected(text);
        assertThat(e.path()).isEqualTo(SPAN_PATH + "." + field);
        assertThat(e.message()).isEqualTo(SPAN_PATH + "." + field + ": " + message);
        assertThat(e.line()).isEqualTo(1);
        assertThat(e.column()).isEqualTo(col(text, "\"" + field + "\":") + field.length() + 3);
    }

    @Test
    void aMissingIdIsRejectedAtTheSpan() {
        String text = spanWith("\"spanId\":\"1111aaaa2222bb01\"");
        InputException e = rejected(text);
        assertThat(e.message()).isEqualTo(SPAN_PATH + ".traceId: missing required field traceId: an attempt span needs its traceId");
        assertThat(e.column()).isEqualTo(col(text, "{\"spanId\""));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "\"traceId\":7|traceId|expected a string, found an integer",
        "\"name\":[]|name|expected a string, found an array",
        "\"kind\":\"CLIENT\"|kind|expected one of SPAN_KIND_UNSPECIFIED, SPAN_KIND_INTERNAL, SPAN_KIND_SERVER, SPAN_KIND_CLIENT, SPAN_KIND_PRODUCER, SPAN_KIND_CONSUMER (or its number)",
        "\"kind\":9|kind|number out of range: must be between 0 and 5",
        "\"startTimeUnixNano\":1.7887897201E18|startTimeUnixNano|expected a count of nanoseconds (a decimal string or an integer), found a fractional number",
        "\"startTimeUnixNano\":\"-1\"|startTimeUnixNano|expected a count of nanoseconds since the epoch as a decimal string",
        "\"startTimeUnixNano\":\"18446744073709551616\"|startTimeUnixNano|out of range: a time is an unsigned 64-bit count of nanoseconds",
        "\"endTimeUnixNano\":18446744073709551616|endTimeUnixNano|out of range: a time is an unsigned 64-bit count of nanoseconds",
        "\"endTimeUnixNano\":-5|endTimeUnixNano|out of range: a time is an unsigned 64-bit count of nanoseconds",
        "\"endTimeUnixNano\":true|endTimeUnixNano|expected a count of nanoseconds (a decimal string or an integer), found a boolean",
    })
    void wrongTypesOfUsedSpanFieldsAreRejectedOnEverySpan(String field, String name, String message) {
        // The span carries no HTTP attribute: the fields the reader uses are still checked.
        String text = export("{" + field + "}");
        InputException e = rejected(text);
        assertThat(e.message()).isEqualTo(SPAN_PATH + "." + name + ": " + message);
    }

    @Test
    void anEndBeforeTheStartIsRejected() {
        String text = spanWith("\"traceId\":\"" + T + "\",\"spanId\":\"1111aaaa2222bb01\","
                + "\"startTimeUnixNano\":\"2000\",\"endTimeUnixNano\":\"1999\"");
        InputException e = rejected(text);
        assertThat(e.message()).isEqualTo(SPAN_PATH + ".endTimeUnixNano: endTimeUnixNano is before startTimeUnixNano");
        assertThat(e.column()).isEqualTo(col(text, "\"1999\""));
    }

    @Test
    void aSpanStatusCodeIsAnEnumNumberOrName() {
        InputException e = rejected(spanWith("\"status\":{\"code\":\"ERROR\"}"));
        assertThat(e.message()).isEqualTo(SPAN_PATH + ".status.code: expected one of STATUS_CODE_UNSET, STATUS_CODE_OK, STATUS_CODE_ERROR (or its number)");
        assertThat(rejected(spanWith("\"status\":{\"code\":3}")).message()).endsWith("must be between 0 and 2");
        assertThat(rejected(spanWith("\"status\":[]")).message()).isEqualTo(SPAN_PATH + ".status: expected a span status (a JSON object), found an array");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "retry_audit.commit_state|{\"stringValue\":\"maybe\"}|value.stringValue|attribute retry_audit.commit_state: expected one of unknown, committed, rejected, not_sent",
        "commit_state|{\"stringValue\":\"landed\"}|value.stringValue|attribute commit_state: expected one of unknown, committed, rejected, not_sent",
        "retry_audit.commit_state_source|{\"stringValue\":\"llm\"}|value.stringValue|attribute retry_audit.commit_state_source: expected one of runner, tool, server, ledger, model",
        "retry_audit.effect|{\"stringValue\":\"Write\"}|value.stringValue|attribute retry_audit.effect: expected one of read, write",
        "retry_audit.attempt_id|{\"stringValue\":\"2\"}|value.stringValue|attribute retry_audit.attempt_id: expected an intValue, found a stringValue",
        "retry_audit.attempt_id|{\"intValue\":\"0\"}|value.intValue|attribute retry_audit.attempt_id: out of range: must be between 1 and 2147483647",
        "attempt_id|{\"intValue\":\"12x\"}|value.intValue|attribute attempt_id: intValue must be a decimal integer",
        "attempt_id|{\"intValue\":1.5}|value.intValue|attribute attempt_id: intValue must be an integer or a decimal string, found a fractional number",
        "attempt_id|{\"intValue\":\"99999999999999999999\"}|value.intValue|attribute attempt_id: intValue must be a decimal integer",
        "attempt_id|{\"intValue\":99999999999999999999}|value.intValue|attribute attempt_id: intValue out of range: an intValue is a 64-bit integer",
        "retry_audit.run_id|{\"boolValue\":true}|value.boolValue|attribute retry_audit.run_id: expected a stringValue, found a boolValue",
        "retry_audit.operation_id|{\"stringValue\":\"a\",\"intValue\":\"1\"}|value.intValue|attribute retry_audit.operation_id: an AnyValue holds exactly one value, this one holds several",
        "retry_audit.retry_reason|\"timeout\"|value|attribute retry_audit.retry_reason: expected an AnyValue object such as {\"stringValue\": \"...\"}, found a string",
        "retry_audit.request_hash|{\"stringValue\":7}|value.stringValue|attribute retry_audit.request_hash: stringValue must be a string, found an integer",
        "http.response.status_code|{\"intValue\":\"700\"}|value.intValue|attribute http.response.status_code: out of range: must be between 100 and 599",
        "http.response.status_code|{\"stringValue\":\"200\"}|value.stringValue|attribute http.response.status_code: expected an intValue, found a stringValue",
        "http.request.resend_count|{\"intValue\":-1}|value.intValue|attribute http.request.resend_count: out of range: must be between 0 and 2147483646",
        "http.response.header.retry-after|{\"arrayValue\":{\"values\":[{\"boolValue\":true}]}}|value.arrayValue.values[0].boolValue|attribute http.response.header.retry-after: expected a string array, found a boolValue",
        "http.request.header.idempotency-key|{\"intValue\":\"2\"}|value.intValue|attribute http.request.header.idempotency-key: expected a string array, found an intValue",
        "http.response.header.date|{\"arrayValue\":{\"values\":5}}|value.arrayValue.values|attribute http.response.header.date: values must be an array, found an integer",
        "url.full|{\"bytesValue\":\"AAE=\"}|value.bytesValue|attribute url.full: expected a stringValue, found a bytesValue",
        "gen_ai.tool.name|{\"doubleValue\":1.5}|value.doubleValue|attribute gen_ai.tool.name: expected a stringValue, found a doubleValue",
    })
    void badValuesOfUsedAttributesNameTheAttributeAndItsPath(String key, String value, String at, String message) {
        String attr = "{\"key\":\"" + key + "\",\"value\":" + value + "}";
        String text = export(span("1111aaaa2222bb01", 0, GET, str("unused", "x"), attr));
        InputException e = rejected(text);
        String path = SPAN_PATH + ".attributes[2]." + at;
        assertThat(e.message()).isEqualTo(path + ": " + message);
        assertThat(e.path()).isEqualTo(path);
    }

    @Test
    void theErrorPointsAtTheValueEvenWhenItPrecedesItsKey() {
        String attr = "{\"value\":{\"stringValue\":\"maybe\"},\"key\":\"commit_state\"}";
        String text = export(span("1111aaaa2222bb01", 0, GET, attr));
        InputException e = rejected(text);
        assertThat(e.path()).isEqualTo(SPAN_PATH + ".attributes[1].value.stringValue");
        assertThat(e.column()).isEqualTo(col(text, "\"maybe\""));
    }

    @Test
    void anAttemptWithAnEmptyOperationIdIsRejected() {
        InputException e = rejected(export(span("1111aaaa2222bb01", 0, str("retry_audit.operation_id", ""))));
        assertThat(e.message()).isEqualTo(SPAN_PATH + ": attribute retry_audit.operation_id must not be empty");
    }

    @Test
    void spansOfOneOperationMustAgreeOnRunAndEffect() {
        String text = export(
                span("1111aaaa2222bb01", 0, str("retry_audit.operation_id", "op"), str("retry_audit.run_id", "r1")),
                span("1111aaaa2222bb02", 9, str("retry_audit.operation_id", "op"), str("parent_run_id", "r2")));
        InputException e = rejected(text);
        assertThat(e.message()).isEqualTo("$.resourceSpans[0].scopeSpans[0].spans[1].attributes: "
                + "retry_audit.run_id disagrees with the span at line 1 of the same operation");
        String effects = export(
                span("1111aaaa2222bb01", 0, str("retry_audit.operation_id", "op"), str("retry_audit.effect", "read")),
                span("1111aaaa2222bb02", 9, str("retry_audit.operation_id", "op"), str("retry_audit.effect", "write")));
        assertThat(rejected(effects).message()).contains("retry_audit.effect disagrees");
    }

    @Test
    void badAttributeValuesOfSpansThatAreNotAttemptsAreIgnored() throws Exception {
        String text = export("{\"traceId\":\"\",\"attributes\":["
                + "{\"key\":\"http.response.status_code\",\"value\":{\"stringValue\":\"oops\"}},"
                + "{\"key\":\"commit_state\",\"value\":{\"stringValue\":\"maybe\"}}".replace("commit_state", "db.state") + "]}");
        assertThat(Inputs.read(InputFormat.OTLP, text)).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "[]|1|1|$|expected an OTLP trace export (an object with resourceSpans), found an array",
        "{\"resourceMetrics\":[]}|1|1|$|missing required field resourceSpans: not an OTLP trace export",
        "{\"resourceSpans\":{}}|1|18|$.resourceSpans|expected resourceSpans (a JSON array), found an object",
        "{\"resourceSpans\":[7]}|1|19|$.resourceSpans[0]|expected a ResourceSpans (a JSON object), found an integer",
        "{\"resourceSpans\":[{\"scopeSpans\":{}}]}|1|33|$.resourceSpans[0].scopeSpans|expected scopeSpans (a JSON array), found an object",
        "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[[]]}]}]}|1|44|$.resourceSpans[0].scopeSpans[0].spans[0]|expected a span (a JSON object), found an array",
        "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{\"attributes\":{}}]}]}]}|1|58|$.resourceSpans[0].scopeSpans[0].spans[0].attributes|expected the attributes (a JSON array), found an object",
        "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{\"attributes\":[1]}]}]}]}|1|59|$.resourceSpans[0].scopeSpans[0].spans[0].attributes[0]|expected an attribute {\"key\": ..., \"value\": ...} (a JSON object), found an integer",
        "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{\"attributes\":[{\"key\":1}]}]}]}]}|1|66|$.resourceSpans[0].scopeSpans[0].spans[0].attributes[0].key|expected a string, found an integer",
    })
    void theStructureIsChecked(String text, long line, long column, String path, String message) {
        InputException e = rejected(text);
        assertThat(e.message()).isEqualTo(path + ": " + message);
        assertThat(e.line()).isEqualTo(line);
        assertThat(e.column()).isEqualTo(column);
    }

    @Test
    void truncatedInputIsMalformedJson() {
        String text = export(span("1111aaaa2222bb01", 0, get("https://a.example/x")));
        InputException e = rejected(text.substring(0, text.length() - 7));
        assertThat(e.message()).contains("malformed JSON: Unexpected end-of-input");
    }

    @Test
    void emptyInputIsRejected() {
        assertThat(rejected("").message()).isEqualTo("$: empty input: expected an OTLP trace export");
        assertThat(rejected(" \n\n").message()).isEqualTo("$: empty input: expected an OTLP trace export");
    }

    @Test
    void jsonLinesHoldOneExportALine() {
        String one = export(span("1111aaaa2222bb01", 0, get("https://a.example/x")));
        InputException sameLine = rejected(one + " " + one + "\n");
        assertThat(sameLine.message()).isEqualTo("$: a second JSON value on one line: JSON Lines hold one export a line");
        assertThat(sameLine.column()).isEqualTo(one.length() + 2);

        InputException spread = rejected(one + "\n{\"resourceSpans\":\n[]}\n");
        assertThat(spread.message()).isEqualTo("$: an export in JSON Lines must fit on one line; this one spans several");
        assertThat(spread.line()).isEqualTo(2);

        InputException trailing = rejected("{\"resourceSpans\":\n[]}\n" + one + "\n");
        assertThat(trailing.message()).startsWith("$: trailing content after the JSON document");
        assertThat(trailing.line()).isEqualTo(3);
    }

    @Test
    void theAttemptLimitAppliesToEachOperation() {
        StringBuilder spans = new StringBuilder();
        for (int i = 0; i < 4; i++) {
            spans.append(i == 0 ? "" : ",").append(span("1111aaaa2222bb0" + (i + 1), i * 10,
                    str("retry_audit.operation_id", "op"), integer("retry_audit.attempt_id", i + 1)));
        }
        InputException e = Inputs.rejected(InputFormat.OTLP, export(spans.toString()), new Limits(1L << 30, 10, 3, 1000, 64));
        assertThat(e.message()).isEqualTo("$.resourceSpans[0].scopeSpans[0].spans[3]: operation has more than 3 attempts, the attempts-per-operation limit");
    }
}

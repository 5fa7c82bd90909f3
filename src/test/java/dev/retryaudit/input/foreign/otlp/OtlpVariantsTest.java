package dev.retryaudit.input.foreign.otlp;

import dev.retryaudit.input.Inputs;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Operation;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shapes of OTLP other than a TracesData document: the Jaeger query API's result wrapper,
 * protobuf-JSON (enum names, base64 ids), bare ResourceSpans lines, and the logging exporter's log.
 */
class OtlpVariantsTest {
    private static final String T = "5f2a7c10d3e94b8a9c61e0b7a4d2f381";
    private static final String SPANS = "\"scopeSpans\":[{\"spans\":[{\"traceId\":\"" + T + "\",\"spanId\":\"1111aaaa2222bb01\","
            + "\"attributes\":[{\"key\":\"http.request.method\",\"value\":{\"stringValue\":\"GET\"}}]}]}]";

    private static String resource(String name) throws IOException {
        try (InputStream in = OtlpVariantsTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void theQueryApiResultWithEnumNamesAndBase64IdsIsRead() throws Exception {
        List<Operation> ops = Inputs.read("v3.json", resource("/input/otlp/jaeger-v3-result.json"));
        assertThat(ops).singleElement().satisfies(op -> {
            assertThat(op.id()).isEqualTo(T + "/1111aaaa2222bb01");
            assertThat(op.attempts()).extracting(Attempt::status).containsExactly(429, 200);
            assertThat(op.attempts()).extracting(Attempt::spanId).containsExactly("1111aaaa2222bb01", "1111aaaa2222bb02");
            assertThat(op.location().pointer()).isEqualTo("/result/resourceSpans/0/scopeSpans/0/spans/0");
        });
    }

    @Test
    void protobufJsonReadsAsTheOtlpJsonItEncodes() throws Exception {
        String proto = resource("/input/otlp/protobuf-json.json");
        String plain = proto.replace("\"Xyp8ENPpS4qcYeC3pNLzgQ==\"", "\"" + T + "\"")
                .replace("\"ERGqqiIiuwE=\"", "\"1111aaaa2222bb01\"").replace("\"ERGqqiIiuwI=\"", "\"1111aaaa2222bb02\"")
                .replace("\"wani9LfTBRY=\"", "\"c1a9e2f4b7d30516\"").replace("\"SPAN_KIND_CLIENT\"", "3")
                .replace("\"STATUS_CODE_ERROR\"", "2");
        assertThat(plain).doesNotContain("SPAN_KIND").doesNotContain("==");
        assertThat(Inputs.read("p.json", proto)).isEqualTo(Inputs.read("p.json", plain));
    }

    @Test
    void idsInUrlSafeOrUnpaddedBase64AreRead() throws Exception {
        String span = "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{\"traceId\":\"Xyp8ENPpS4qcYeC3pNLzgQ\","
                + "\"spanId\":\"-_8AAPv_AAE\",\"attributes\":[{\"key\":\"http.request.method\",\"value\":{\"stringValue\":\"GET\"}}]}]}]}]}";
        assertThat(Inputs.read(InputFormat.OTLP, span).get(0).id()).isEqualTo(T + "/fbff0000fbff0001");
    }

    @Test
    void bareResourceSpansLinesAreExports() throws Exception {
        String line = "{\"resource\":{\"attributes\":[]}," + SPANS + "}";
        List<Operation> ops = Inputs.read(InputFormat.OTLP, line + "\n" + line.replace("bb01", "bb02") + "\n");
        assertThat(ops).hasSize(2);
        assertThat(Inputs.read(InputFormat.OTLP, line).get(0).location().pointer()).isEqualTo("/scopeSpans/0/spans/0");
    }

    @Test
    void theLoggingExportersLogIsReadWithTheColumnsOfTheLog() throws Exception {
        String log = resource("/input/otlp/logging-otlp.log");
        List<Operation> ops = Inputs.read("app.log", log);
        assertThat(ops).singleElement().satisfies(op -> {
            assertThat(op.attempts()).hasSize(2);
            Attempt second = op.attempts().get(1);
            String line = log.split("\n")[4];
            assertThat(second.location().line()).isEqualTo(5);
            assertThat(second.location().column()).isEqualTo(line.indexOf("{\"traceId\"") + 1);
        });
    }

    @Test
    void anErrorInALogLineIsPlacedInTheLog() {
        String prefix = "[otel.javaagent 2026-09-07 14:02:05:001 +0000] [main] INFO x.OtlpJsonLoggingSpanExporter - ";
        String text = "starting\n" + prefix + "{\"resource\":{}," + SPANS.replace("\"GET\"", "7") + "}\n";
        InputException e = Inputs.rejected(InputFormat.OTLP, text);
        assertThat(e.line()).isEqualTo(2);
        assertThat(e.column()).isEqualTo(text.split("\n")[1].indexOf("\"stringValue\":7") + "\"stringValue\":".length() + 1);
        assertThat(Inputs.rejected(InputFormat.OTLP, "starting\nstopped\n").message())
                .startsWith("$: no OTLP export in this log");
        assertThat(Inputs.rejected(InputFormat.OTLP, prefix + "{\"resource\":{}," + SPANS + "}\n" + prefix
                + "{\"resource\":{},\n" + SPANS + "}\n").message()).as("an export cut by a line end").contains("end-of-input");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"resourceSpans\":[],\"scopeSpans\":[]}|$.scopeSpans|an export holds one of resourceSpans (an export), scopeSpans (one ResourceSpans) and result (a query response), not resourceSpans and scopeSpans",
        "{\"result\":[]}|$.result|expected the result of a query: an OTLP trace export (a JSON object), found an array",
        "{\"result\":{\"result\":{}}}|$.result|missing required field resourceSpans: not an OTLP trace export",
        "{\"result\":{\"traces\":[]}}|$.result|missing required field resourceSpans: not an OTLP trace export",
        "{\"scopeSpans\":{}}|$.scopeSpans|expected scopeSpans (a JSON array), found an object",
    })
    void theShapesAreCheckedStrictly(String text, String path, String message) {
        assertThat(Inputs.rejected(InputFormat.OTLP, text).message()).isEqualTo(path + ": " + message);
    }

    @Test
    void protoFieldNamesReadAsJsonNamesAndMayBeMixed() throws Exception {
        String snake = "{\"resource_spans\":[{\"scope_spans\":[{\"spans\":[{\"trace_id\":\"" + T + "\","
                + "\"span_id\":\"1111aaaa2222bb01\",\"parentSpanId\":\"c1a9e2f4b7d30516\",\"kind\":3,"
                + "\"start_time_unix_nano\":\"1788789720000000000\",\"endTimeUnixNano\":\"1788789720040000000\","
                + "\"status\":{\"code\":\"STATUS_CODE_ERROR\"},\"events\":[{\"name\":\"exception\",\"attributes\":"
                + "[{\"key\":\"exception.type\",\"value\":{\"string_value\":\"httpx.ReadTimeout\"}}]}],"
                + "\"attributes\":[{\"key\":\"http.request.method\",\"value\":{\"string_value\":\"POST\"}},"
                + "{\"key\":\"url.full\",\"value\":{\"stringValue\":\"https://api.example/v1/orders\"}},"
                + "{\"key\":\"http.request.header.idempotency-key\",\"value\":{\"array_value\":{\"values\":"
                + "[{\"string_value\":\"k-1\"}]}}}]}]}]}]}";
        Operation op = Inputs.read("snake.json", snake).get(0);
        assertThat(op.id()).isEqualTo(T + "/1111aaaa2222bb01");
        assertThat(op.idempotencyKey()).isEqualTo("k-1");
        Attempt a = op.attempts().get(0);
        assertThat(a.startMillis()).isEqualTo(1788789720000L);
        assertThat(a.endMillis()).isEqualTo(1788789720040L);
        assertThat(a.outcome()).isEqualTo(dev.retryaudit.model.Outcome.TIMEOUT);
    }
}

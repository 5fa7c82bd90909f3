package dev.retryaudit.input;

import dev.retryaudit.json.StrictJson;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Limits;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import static org.assertj.core.api.Assertions.assertThat;

/** Auto-detection of the input format from the first JSON value's top-level keys and the file name. */
class FormatDetectorTest {
    private static final String OTLP_LINE = "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[]}]}]}";

    private static FormatDetector.Guess detect(String name, String content) {
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        int head = Math.min(bytes.length, FormatDetector.HEAD_BYTES);
        return FormatDetector.detect(name, bytes, head, new StrictJson(Limits.DEFAULTS));
    }

    private static InputFormat format(String name, String content) {
        FormatDetector.Guess g = detect(name, content);
        assertThat(g.empty()).isFalse();
        return g.format();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "x.json|{\"version\": 1, \"operations\": []}|OPERATIONS",
        "<stdin>|{\"$schema\": \"s\", \"source\": \"x\", \"version\": 1, \"operations\": []}|OPERATIONS",
        "x.jsonl|{\"attempt_id\": 1, \"operation_id\": \"a\"}|SPANS",
        "<stdin>|{\"operation_id\": \"a\", \"attempt_id\": 1}|SPANS",
        "x.ndjson|{\"idempotency_key\": \"k\", \"tool\": \"t\"}|SPANS",
        "x.json|{\"run_id\": \"r\", \"attempts\": []}|RETRY_TRACE",
        "x.json|{\"attempts\": [], \"run_id\": \"r\"}|RETRY_TRACE",
        "x.json|{\"evidence\": {\"attempts\": []}}|RETRY_TRACE",
        "x.json|{\"format\": \"retry-trace\"}|RETRY_TRACE",
        "x.json|{\"resourceSpans\": []}|OTLP",
        "traces.jsonl|{\"resourceSpans\": []}|OTLP",
        "x.json|{\"resource_spans\": []}|OTLP",
        "x.json|{\"resource\": {}, \"scope_spans\": []}|OTLP",
        "x.json|{\"instrumentation_library_spans\": []}|OTLP",
        "<stdin>|{\"log\": {\"version\": \"1.2\", \"entries\": []}}|HAR",
        "x.json|{\"_exporter\": \"x\", \"log\": {}}|HAR",
        "x.HAR|{\"_exporter\": \"x\"}|HAR",
        "x.har|{\"resourceSpans\": []}|OTLP",
    })
    void aKeyThatNamesAFormatDecidesElseTheExtension(String name, String content, InputFormat expected) {
        assertThat(format(name, content)).isEqualTo(expected);
    }

    @Test
    void jsonLinesOfOtlpExportsAreOtlpWhateverTheName() {
        String lines = OTLP_LINE + "\n" + OTLP_LINE + "\n";
        assertThat(format("export.jsonl", lines)).isEqualTo(InputFormat.OTLP);
        assertThat(format("<stdin>", lines)).isEqualTo(InputFormat.OTLP);
        assertThat(format("export.json", "\uFEFF" + lines)).isEqualTo(InputFormat.OTLP);
    }

    @Test
    void spanLinesWithoutADecisiveKeyAreSpansOnlyAsJsonLines() {
        String line = "{\"type\": \"attempt\", \"idempotency_key\": \"k\"}";
        assertThat(format("<stdin>", line + "\n" + line + "\n")).isEqualTo(InputFormat.SPANS);
        assertThat(format("x.jsonl", line)).isEqualTo(InputFormat.SPANS);
        assertThat(format("<stdin>", line)).isNull();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "x.json|{\"hello\": 1}",
        "<stdin>|[1, 2]",
        "<stdin>|{}",
        "x.json|\"operations\"",
        "x.jsonl|{\"version\": 1, \"operations\": []}",
    })
    void ambiguousInputHasNoFormat(String name, String content) {
        assertThat(format(name, content)).isNull();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "x.json|{\"data\": [{\"traceID\": \"t\", \"spans\": [|JAEGER",
        "x.json|{\"data\": [{\"spans\": [|JAEGER",
        "x.json|{\"total\": 0, \"data\": [{\"processes\": {\"p1\": {\"tags\": [|JAEGER",
        "x.json|{\"result\": {\"resourceSpans\": [|OTLP",
        "x.json|[{\"traceID\": \"t\", \"spans\": [|JAEGER",
        "x.json|{\"log\": {\"entries\": [|HAR",
        "x.json|{\"resourceSpans\": [|OTLP",
    })
    void aFirstDocumentLargerThanTheHeadIsDecidedByWhatTheHeadShows(String name, String start, InputFormat expected) {
        String padding = "{\"k\": \"" + "x".repeat(1000) + "\"},\n";
        String content = start + padding.repeat(FormatDetector.HEAD_BYTES / padding.length() + 10);
        assertThat(content.length()).isGreaterThan(FormatDetector.HEAD_BYTES);
        assertThat(format(name, content)).isEqualTo(expected);
    }

    @Test
    void aWrapperThatTheHeadEndsInsideOfWithoutShowingAFormatIsNone() {
        String padding = "\"" + "x".repeat(1000) + "\", ";
        String content = "{\"data\": [{\"other\": [" + padding.repeat(FormatDetector.HEAD_BYTES / padding.length() + 10);
        assertThat(format("x.json", content)).isNull();
    }

    @Test
    void emptyInputIsToldApart() {
        assertThat(detect("x.json", "").empty()).isTrue();
        assertThat(detect("x.har", " \n\t").empty()).isTrue();
        assertThat(detect("<stdin>", "\uFEFF").empty()).isTrue();
        assertThat(detect("x.json", "{").empty()).isFalse();
    }

    @Test
    void aFirstValueLongerThanTheHeadFallsBackOnTheKeysSeenAndTheExtension() {
        String preamble = "{\"_comment\": \"" + "x".repeat(FormatDetector.HEAD_BYTES) + "\", \"log\": {}}";
        assertThat(format("big.har", preamble)).isEqualTo(InputFormat.HAR);
        assertThat(format("big.json", preamble)).isNull();
        String operations = "{\"version\": 1, \"operations\": [" + "{}, ".repeat(FormatDetector.HEAD_BYTES / 4) + "{}]}";
        assertThat(format("big.json", operations)).isEqualTo(InputFormat.OPERATIONS);
    }

    @Test
    void malformedContentStillDecidesOnTheKeysBeforeTheFault() {
        assertThat(format("<stdin>", "{\"resourceSpans\": [}")).isEqualTo(InputFormat.OTLP);
        assertThat(format("<stdin>", "{\"log\" 1}")).isNull();
        assertThat(format("x.har", "not json")).isEqualTo(InputFormat.HAR);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "x.json|[{\"traceId\": \"7d1c4e9a2b3f4a5c\", \"id\": \"1\", \"kind\": \"CLIENT\"}]|ZIPKIN",
        "x.json|[{\"traceId\": \"7d\", \"name\": \"get\", \"localEndpoint\": {}}]|ZIPKIN",
        "x.json|{\"traceId\": \"7d1c4e9a2b3f4a5c\", \"parentId\": \"2\", \"id\": \"1\"}|ZIPKIN",
        "x.jsonl|{\"traceId\": \"7d1c4e9a2b3f4a5c\", \"id\": \"1\"}|ZIPKIN",
        "x.json|{\"localEndpoint\": {\"serviceName\": \"a\"}}|ZIPKIN",
        "x.json|{\"data\": [{\"traceID\": \"1\", \"spans\": []}], \"total\": 0}|JAEGER",
        "x.json|{\"data\": [{\"spans\": [], \"processes\": {}}]}|JAEGER",
        "x.json|{\"traceID\": \"1\", \"spans\": [], \"processes\": {}}|JAEGER",
        "x.json|[{\"traceID\": \"2be3\", \"spanID\": \"7606\", \"process\": {}}]|JAEGER",
        "x.json|[{\"traceID\": \"2be3\", \"spans\": []}]|JAEGER",
        "x.json|{\"result\": {\"resourceSpans\": []}}|OTLP",
        "x.json|{\"result\": {\"resource_spans\": []}}|OTLP",
        "x.json|{\"resource\": {}, \"scopeSpans\": []}|OTLP",
        "x.json|{\"instrumentationLibrarySpans\": []}|OTLP",
        "x.json|{\"kind\": \"local-curl-retry-after-diagnostic\", \"cases\": []}|RETRY_TRACE",
        "x.json|{\"data\": [1, [2], {\"a\": 3}], \"operations\": []}|OPERATIONS",
        "x.json|{\"data\": [], \"result\": 7, \"log\": {}}|HAR",
    })
    void theKeysOfZipkinJaegerAndOtlpVariantsDecide(String name, String content, InputFormat expected) {
        assertThat(format(name, content)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "x.json|{\"data\": [1, 2]}",
        "x.json|{\"data\": {\"x\": 1}}",
        "x.json|{\"result\": {\"error\": 1}}",
        "x.json|{\"kind\": \"CLIENT\"}",
        "x.json|{\"kind\": \"local-curl\", \"cases\": []}",
        "x.json|[{\"id\": \"1\"}]",
        "x.json|[]",
    })
    void wrappersAndArraysOfOtherThingsHaveNoFormat(String name, String content) {
        assertThat(format(name, content)).isNull();
    }

    @Test
    void wrappersAndArraysLongerThanTheHeadAreJudgedByTheirFirstElement() {
        String trace = "{\"traceID\": \"1\", \"spans\": [], \"processes\": {}}";
        String traces = String.join(",\n", java.util.Collections.nCopies(FormatDetector.HEAD_BYTES / trace.length() + 10, trace));
        assertThat(format("x.json", "{\"data\": [" + traces + "]}")).isEqualTo(InputFormat.JAEGER);
        assertThat(format("x.json", "[" + traces + "]")).isEqualTo(InputFormat.JAEGER);
        String span = "{\"traceId\": \"1\", \"id\": \"2\"}";
        String spans = String.join(",\n", java.util.Collections.nCopies(FormatDetector.HEAD_BYTES / span.length() + 10, span));
        assertThat(format("x.json", "[" + spans + "]")).isEqualTo(InputFormat.ZIPKIN);
    }

    @Test
    void aLogOfTheLoggingExporterIsOtlp() {
        String prefix = "[otel.javaagent 2026-09-07 14:02:05:001 +0000] [BatchSpanProcessor_WorkerThread-1] INFO "
                + "io.opentelemetry.exporter.logging.otlp.OtlpJsonLoggingSpanExporter - ";
        String export = "{\"resource\":{},\"scopeSpans\":[]}";
        assertThat(format("app.log", "starting\n" + prefix + export + "\n")).isEqualTo(InputFormat.OTLP);
        assertThat(format("<stdin>", prefix + export + "\n")).isEqualTo(InputFormat.OTLP);
        assertThat(format("app.log", "starting\n" + prefix + "{\"hello\": 1}\n")).isNull();
        assertThat(format("app.log", "starting\nINFO x - {\"scopeSpans\": []}\n")).isNull();
    }
}

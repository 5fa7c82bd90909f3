package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** OTLP and HAR inputs through the command line: detection, the report's inputs and locations, and input errors. */
class ForeignFormatsCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TRACE = "7d1c4e9a2b3f4a5c8e6d0f1a2b3c4d5e";

    @TempDir
    Path dir;

    /** Copies a test resource into the temporary directory under {@code name}. */
    private String copy(String resource, String name) throws IOException {
        Path p = dir.resolve(name);
        try (InputStream in = getClass().getResourceAsStream(resource)) {
            Files.copy(in, p);
        }
        return p.toString();
    }

    private String write(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content);
        return p.toString();
    }

    private static JsonNode findingOf(JsonNode report, String rule) {
        for (JsonNode f : report.get("findings")) {
            if (f.get("rule").asText().equals(rule)) {
                return f;
            }
        }
        throw new AssertionError("no finding of " + rule + " in " + report.get("findings"));
    }

    private static List<String> rules(JsonNode report) {
        List<String> rules = new ArrayList<>();
        report.get("findings").forEach(f -> rules.add(f.get("rule").asText()));
        return rules;
    }

    @Test
    void anOtlpDocumentIsDetectedAndItsFindingsPointAtTheSpan() throws IOException {
        String file = copy("/input/otlp/agent-checkout.json", "agent.json");
        CliRunner.Result r = CliRunner.run("audit", file);
        assertThat(r.err()).isEmpty();
        assertThat(r.exit()).isEqualTo(2);
        JsonNode report = JSON.readTree(r.out());
        JsonNode input = report.get("inputs").get(0);
        assertThat(input.get("format").asText()).isEqualTo("otlp");
        assertThat(input.get("operations").asInt()).isEqualTo(5);
        assertThat(input.get("attempts").asInt()).isEqualTo(7);
        JsonNode replay = findingOf(report, "timeout-replay/unreconciled");
        assertThat(replay.get("operation").asText()).isEqualTo(TRACE + "/1111aaaa2222bb01");
        assertThat(replay.get("attempt").asInt()).isEqualTo(2);
        assertThat(replay.get("tool").asText()).isEqualTo("POST pay.example");
        assertThat(replay.get("run").asText()).isEqualTo(TRACE);
        assertThat(replay.get("location").get("line").asInt()).isEqualTo(95);
        assertThat(replay.get("location").get("column").asInt()).isEqualTo(13);
        assertThat(replay.get("location").get("pointer").asText()).isEqualTo("/resourceSpans/0/scopeSpans/0/spans/2");
        // OTLP carries no retry_reason here: the trace rule that demands one stays silent.
        assertThat(rules(report)).doesNotContain("trace/retry-reason", "effect-verification/missing-state");
    }

    @Test
    void aRetried503WhoseSpanRecordsNoResponseHeaderPassesWithANoteThatSaysWhatToCapture() throws IOException {
        String file = copy("/input/otlp/retry-without-response-headers.json", "retry.json");
        CliRunner.Result r = CliRunner.run("audit", "--format", "text", file);
        assertThat(r.exit()).isEqualTo(0);
        assertThat(r.out()).contains(file + ":1:192: input note: 1 HTTP span answered 429 or 503 and sent again records "
                + "no response header, the first span 1111aaaa2222bb01 (GET https://api.example/v1/items): the export did "
                + "not capture Retry-After, so whether the resend waited as the server asked is not checked; capture the "
                + "response headers retry-after, retry-after-ms and date");

        // A span that records any response header recorded its Retry-After too: the early resend is found, with no note.
        String captured = write("captured.json", Files.readString(Path.of(file)).replaceFirst(
                "\\{\"key\": \"http.response.status_code\"",
                "{\"key\": \"http.response.header.retry-after\", \"value\": {\"stringValue\": \"2\"}}, "
                        + "{\"key\": \"http.response.status_code\""));
        CliRunner.Result early = CliRunner.run("audit", "--format", "text", captured);
        assertThat(early.exit()).isEqualTo(2);
        assertThat(early.out()).contains("[retry-after/early]").doesNotContain("input note");
    }

    @Test
    void otlpJsonLinesOnStdinAreDetectedAndHaveNoPointers() throws IOException {
        String span1 = "{\"traceId\":\"" + TRACE + "\",\"spanId\":\"1111aaaa2222bb01\",\"startTimeUnixNano\":\"1788789720000000000\","
                + "\"endTimeUnixNano\":\"1788789728000000000\",\"attributes\":[{\"key\":\"http.request.method\",\"value\":{\"stringValue\":\"POST\"}},"
                + "{\"key\":\"url.full\",\"value\":{\"stringValue\":\"https://pay.example/c\"}},{\"key\":\"error.type\",\"value\":{\"stringValue\":\"timeout\"}}]}";
        String span2 = span1.replace("bb01", "bb02").replace("1788789720000000000", "1788789729000000000")
                .replace("1788789728000000000", "1788789729500000000")
                .replace("{\"key\":\"error.type\",\"value\":{\"stringValue\":\"timeout\"}}",
                        "{\"key\":\"http.request.resend_count\",\"value\":{\"intValue\":1}}");
        String lines = "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[" + span1 + "]}]}]}\n"
                + "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[" + span2 + "]}]}]}\n";
        CliRunner.Result r = CliRunner.runWithStdin(lines, "audit");
        JsonNode report = JSON.readTree(r.out());
        assertThat(report.get("inputs").get(0).get("format").asText()).isEqualTo("otlp");
        // No key was recorded and none could be: the keyless row does not apply, the unreconciled one does.
        JsonNode replay = findingOf(report, "timeout-replay/unreconciled");
        assertThat(replay.get("location").get("line").asInt()).isEqualTo(2);
        assertThat(replay.get("location").get("pointer").isNull()).isTrue();
        assertThat(r.exit()).isEqualTo(2);
    }

    @Test
    void aHarFileIsDetectedAndADuplicatePostAfterAFailedOneIsFound() throws IOException {
        String file = copy("/input/har/checkout.har", "checkout.har");
        CliRunner.Result r = CliRunner.run("audit", file);
        assertThat(r.exit()).isEqualTo(2);
        JsonNode report = JSON.readTree(r.out());
        assertThat(report.get("inputs").get(0).get("format").asText()).isEqualTo("har");
        JsonNode replay = findingOf(report, "timeout-replay/unreconciled");
        assertThat(replay.get("operation").asText()).isEqualTo(file + "#/log/entries/0");
        assertThat(replay.get("location").get("line").asInt()).isEqualTo(116);
        assertThat(replay.get("location").get("column").asInt()).isEqualTo(7);
        assertThat(replay.get("location").get("pointer").asText()).isEqualTo("/log/entries/2");
    }

    @Test
    void aFailedGetThenASuccessfulOneIsClean() throws IOException {
        String har = "{\"log\":{\"version\":\"1.2\",\"entries\":["
                + "{\"startedDateTime\":\"2026-06-16T21:41:23.951Z\",\"time\":-1,\"request\":{\"method\":\"GET\",\"url\":\"http://localhost:8907/api\",\"headers\":[]},"
                + "\"response\":{\"status\":-1,\"headers\":[]},\"timings\":{\"send\":-1}},"
                + "{\"startedDateTime\":\"2026-06-16T21:41:24.951Z\",\"time\":0.578,\"request\":{\"method\":\"GET\",\"url\":\"http://localhost:8907/api\",\"headers\":[]},"
                + "\"response\":{\"status\":200,\"headers\":[{\"name\":\"Date\",\"value\":\"Tue, 16 Jun 2026 21:41:24 GMT\"}]}}]}}";
        CliRunner.Result r = CliRunner.run("audit", write("unstable.har", har));
        assertThat(r.exit()).isZero();
        JsonNode report = JSON.readTree(r.out());
        assertThat(report.get("summary").get("retries").asInt()).isEqualTo(1);
        assertThat(report.get("findings")).isEmpty();
    }

    @Test
    void aBadSpanIdExits65WithTheFileLineAndColumn() throws IOException {
        String file = write("bad.json", "{\"resourceSpans\": [{\"scopeSpans\": [{\"spans\": [\n"
                + "  {\"traceId\": \"" + TRACE + "\", \"spanId\": \"not-hex!\",\n"
                + "   \"attributes\": [{\"key\": \"http.request.method\", \"value\": {\"stringValue\": \"GET\"}}]}]}]}]}\n");
        CliRunner.Result r = CliRunner.run("audit", file);
        assertThat(r.exit()).isEqualTo(65);
        String path = "$.resourceSpans[0].scopeSpans[0].spans[0].spanId";
        assertThat(r.err()).isEqualTo(file + ":2:61: error: " + path + ": expected 16 hexadecimal digits (8 bytes), or the 8 bytes in base64\n");
        JsonNode error = JSON.readTree(r.out()).get("error");
        assertThat(error.get("code").asInt()).isEqualTo(65);
        assertThat(error.get("path").asText()).isEqualTo(path);
        assertThat(error.get("line").asInt()).isEqualTo(2);
    }

    @Test
    void aBadEnumInAnExplicitAttributeNamesTheAttribute() throws IOException {
        String file = write("enum.jsonl", "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{\"traceId\":\"" + TRACE
                + "\",\"spanId\":\"1111aaaa2222bb01\",\"attributes\":[{\"key\":\"retry_audit.commit_state\","
                + "\"value\":{\"stringValue\":\"probably\"}}]}]}]}]}\n");
        CliRunner.Result r = CliRunner.run("audit", file);
        assertThat(r.exit()).isEqualTo(65);
        assertThat(r.err()).startsWith(file + ":1:").contains(
                "error: $.resourceSpans[0].scopeSpans[0].spans[0].attributes[0].value.stringValue: "
                        + "attribute retry_audit.commit_state: expected one of unknown, committed, rejected, not_sent");
    }

    @Test
    void aNamedFormatThatDoesNotFitTheContentIsRejected() throws IOException {
        String har = copy("/input/har/checkout.har", "checkout.har");
        String otlp = copy("/input/otlp/agent-checkout.json", "agent.json");
        CliRunner.Result asOtlp = CliRunner.run("audit", "--input-format", "otlp", har);
        assertThat(asOtlp.exit()).isEqualTo(65);
        assertThat(asOtlp.err()).isEqualTo(har + ":1:1: error: $: missing required field resourceSpans: not an OTLP trace export\n");
        CliRunner.Result asHar = CliRunner.run("audit", "--input-format", "har", otlp);
        assertThat(asHar.exit()).isEqualTo(65);
        assertThat(asHar.err()).isEqualTo(otlp + ":1:1: error: $: missing required field log: not a HAR document\n");
    }

    @Test
    void ambiguousAndEmptyInputsExit65() throws IOException {
        CliRunner.Result ambiguous = CliRunner.run("audit", write("what.json", "{\"spans\": []}"));
        assertThat(ambiguous.exit()).isEqualTo(65);
        assertThat(ambiguous.err()).contains("cannot tell the input format", "--input-format", "otlp", "har");
        CliRunner.Result empty = CliRunner.run("audit", write("empty.har", ""));
        assertThat(empty.exit()).isEqualTo(65);
        assertThat(empty.err()).contains("empty.har:1:1: error: empty input");
    }

    @Test
    void severalForeignFilesAreOneInputSet() throws IOException {
        String a = copy("/input/har/checkout.har", "a.har");
        String b = copy("/input/har/checkout.har", "b.har");
        String c = copy("/input/otlp/agent-checkout.json", "c.json");
        CliRunner.Result r = CliRunner.run("audit", a, b, c);
        JsonNode report = JSON.readTree(r.out());
        assertThat(report.get("inputs")).extracting(i -> i.get("format").asText()).containsExactly("har", "har", "otlp");
        assertThat(report.get("summary").get("operations").asInt()).isEqualTo(9);
    }

    @Test
    void theShippedExamplesAuditAsTheReadmeSays() throws IOException {
        for (String example : List.of("examples/checkout-otlp.json", "examples/checkout.har")) {
            CliRunner.Result r = CliRunner.run("audit", example);
            assertThat(r.exit()).as(example).isEqualTo(2);
            JsonNode report = JSON.readTree(r.out());
            assertThat(rules(report)).as(example).containsExactly("timeout-replay/unreconciled");
            assertThat(findingOf(report, "timeout-replay/unreconciled").get("attempt").asInt()).isEqualTo(2);
        }
    }

    @Test
    void theInputLimitsApplyToForeignFormats() throws IOException {
        String otlp = copy("/input/otlp/agent-checkout.json", "agent.json");
        CliRunner.Result deep = CliRunner.run("audit", "--limit-depth", "5", otlp);
        assertThat(deep.exit()).isEqualTo(65);
        assertThat(deep.err()).contains("depth limit", "--limit-depth");
        CliRunner.Result many = CliRunner.run("audit", "--limit-operations", "2", otlp);
        assertThat(many.exit()).isEqualTo(65);
        assertThat(many.err()).contains("more than 2 operations", "--limit-operations");
        String har = copy("/input/har/checkout.har", "checkout.har");
        CliRunner.Result longString = CliRunner.run("audit", "--limit-string", "20", har);
        assertThat(longString.exit()).isEqualTo(65);
        assertThat(longString.err()).contains("--limit-string");
    }

    @Test
    void helpListsTheForeignFormats() {
        assertThat(CliRunner.run("audit", "--help").out()).contains("otlp", "har");
    }

    @Test
    void anInputOfNoAttemptSaysThatNothingInItWasAudited() throws IOException {
        String otlp = write("empty.json", "{\"resourceSpans\":[]}");
        String har = write("empty.har", "{\"log\":{\"version\":\"1.2\",\"creator\":{\"name\":\"x\",\"version\":\"1\"},\"entries\":[]}}");
        String zipkin = write("empty-zipkin.json", "[]");
        String spans = copy("/input/otlp/agent-checkout.json", "agent.json");
        String nothing = "nothing in this input was audited: it holds no attempt (no span, request or operation the audit reads)";
        CliRunner.Result r = CliRunner.run("audit", "--fail-on", "never", otlp, har, spans);
        assertThat(r.exit()).isZero();
        JsonNode inputs = JSON.readTree(r.out()).get("inputs");
        for (int i : new int[] {0, 1}) {
            assertThat(inputs.get(i).get("operations").asLong()).isZero();
            assertThat(inputs.get(i).get("notes")).hasSize(1);
            JsonNode note = inputs.get(i).get("notes").get(0);
            assertThat(note.get("message").asText()).isEqualTo(nothing);
            assertThat(note.get("line").asLong()).isZero();
        }
        // An input with attempts gets no such note.
        assertThat(inputs.get(2).get("operations").asLong()).isPositive();
        assertThat(inputs.get(2).toString()).doesNotContain("nothing in this input");
        CliRunner.Result text = CliRunner.run("audit", "--allow-empty", "--format", "text", "--input-format", "zipkin", zipkin);
        assertThat(text.exit()).isZero();
        assertThat(text.out()).contains(zipkin + ": input note: " + nothing);
        // Spans the audit does not read are noted as such, and the note on the whole source counts them.
        String dubbo = write("dubbo.json", "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{\"traceId\":\"" + TRACE
                + "\",\"spanId\":\"1111111111111111\",\"name\":\"call\",\"kind\":3,\"startTimeUnixNano\":\"1\","
                + "\"endTimeUnixNano\":\"2\",\"attributes\":[{\"key\":\"rpc.system\",\"value\":{\"stringValue\":\"dubbo\"}}]}]}]}]}");
        CliRunner.Result other = CliRunner.run("audit", "--allow-empty", "--format", "text", dubbo);
        assertThat(other.out()).contains("not used",
                "nothing in this input was audited: it holds 1 span, none an attempt: 1 span of other protocols");
    }
}

package dev.retryaudit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.retryaudit.input.InputSet;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Operation;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Exports shaped as the producers write them (src/test/resources/producers, each described in its
 * README), audited through the command line with the exact findings, operations and notes a careful
 * reader gives them: an SDK's call span over its sends, a send aborted by the client's own timer, a
 * read timeout wrapped by WebClient and retried on another thread, the failure named only in a Zipkin
 * annotation, two failed requests in flight together in a HAR, and OTLP/JSON under proto field names.
 */
class ProducerFixturesCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path DIR = Path.of("src/test/resources/producers");

    private static JsonNode audit(String file, int exit) throws IOException {
        CliRunner.Result r = CliRunner.run("audit", DIR.resolve(file).toString());
        assertThat(r.err()).isEmpty();
        assertThat(r.exit()).as(r.out()).isEqualTo(exit);
        return JSON.readTree(r.out());
    }

    /** The rule and attempt of every finding. */
    private static List<String> rules(JsonNode report) {
        List<String> out = new ArrayList<>();
        report.get("findings").forEach(f -> out.add(f.get("rule").asText() + " " + f.get("attempt").asText()));
        return out;
    }

    /** The messages of the input notes of the report's one input. */
    private static List<String> notes(JsonNode report) {
        List<String> out = new ArrayList<>();
        report.at("/inputs/0/notes").forEach(n -> out.add(n.get("message").asText()));
        return out;
    }

    /** The attempt count of each operation read from {@code file}, in the order read. */
    private static List<Integer> attempts(String file) throws Exception {
        List<Integer> counts = new ArrayList<>();
        new InputSet(InputFormat.AUTO, Limits.DEFAULTS).readAll(List.of(InputSet.Source.of(DIR.resolve(file).toString())),
                new ByteArrayInputStream(new byte[0]), (Operation op) -> counts.add(op.attempts().size()));
        return counts;
    }

    @Test
    void theSendsUnderAnAnthropicCallSpanAreTheOperationAndACleanRunIsClean() throws Exception {
        JsonNode report = audit("anthropic-call-span.json", 0);
        assertThat(rules(report)).isEmpty();
        assertThat(attempts("anthropic-call-span.json")).containsExactly(3);
        assertThat(notes(report)).isEmpty();
    }

    @Test
    void aCallSpanCountingMoreSendsThanTheExportHoldsIsANoteNotAnError() throws Exception {
        JsonNode report = audit("anthropic-call-span-missing-send.json", 0);
        assertThat(rules(report)).isEmpty();
        assertThat(notes(report)).containsExactly("call span a1c0ffee00000001 (anthropic.messages.create, POST "
                + "https://api.anthropic.com/v1/messages) records resend_count 2 (3 sends), but 2 attempts are under "
                + "it in the export: the attempts found are audited, the sends missing from the export are not");
    }

    @Test
    void aKeylessPostAbortedByTheClientsTimerAndSentAgainIsATimeoutReplay() throws Exception {
        JsonNode report = audit("openai-timeout-keyless.json", 2);
        assertThat(rules(report)).containsExactly("timeout-replay/keyless 2");
        assertThat(report.at("/findings/0/evidence/prior_outcome").asText()).isEqualTo("timeout");
        assertThat(notes(report)).singleElement().asString().startsWith("1 HTTP span ended with no status code, "
                + "no error.type, span status unset and no exception event, the first span 00f067aa0ba902b7 (POST "
                + "https://api.openai.com/v1/chat/completions): read as a timeout");
    }

    @Test
    void aWebClientReadTimeoutNamedOnlyInItsCauseIsATimeoutAndItsRetryOnAnotherThreadIsLinked()
            throws Exception {
        JsonNode report = audit("webclient-read-timeout.json", 2);
        assertThat(rules(report)).containsExactly("timeout-replay/keyless 2");
        assertThat(attempts("webclient-read-timeout.json")).containsExactly(2);
        assertThat(report.at("/findings/0/evidence/grouped_by").asText())
                .isEqualTo("inferred: same client, method and URL after a failure within 10 s");
    }

    @Test
    void aTimeoutNamedOnlyInAZipkinExceptionAnnotationIsATimeout() throws Exception {
        JsonNode report = audit("zipkin-exception-annotation.json", 2);
        assertThat(rules(report)).containsExactly("timeout-replay/keyless 2");
        assertThat(report.at("/findings/0/evidence/prior_outcome").asText()).isEqualTo("timeout");
    }

    @Test
    void twoFailedFetchesInFlightTogetherInAHarAreEachLinkedToTheirRetry() throws Exception {
        JsonNode report = audit("har-concurrent-503.har", 0);
        assertThat(rules(report)).isEmpty();
        assertThat(attempts("har-concurrent-503.har")).containsExactly(1, 2, 2);
    }

    @Test
    void otlpJsonUnderProtoFieldNamesReadsAsUnderJsonNames() throws Exception {
        Path camel = Path.of("src/test/resources/real/recorded/otel-js/got-honoured-429-parent.json");
        Path snake = DIR.resolve("got-honoured-429-parent-proto-names.json");
        CliRunner.Result a = CliRunner.run("audit", "--format", "text", camel.toString());
        CliRunner.Result b = CliRunner.run("audit", "--format", "text", snake.toString());
        assertThat(b.exit()).isEqualTo(a.exit()).isZero();
        assertThat(b.out()).isEqualTo(a.out());
        JsonNode report = audit("got-honoured-429-parent-proto-names.json", 0);
        assertThat(attempts("got-honoured-429-parent-proto-names.json")).containsExactly(2);
        assertThat(Files.readString(snake)).contains("\"resource_spans\"", "\"start_time_unix_nano\"",
                "\"string_value\"").doesNotContain("\"resourceSpans\"");
    }

    @Test
    void findingsOfOtlpJsonUnderProtoFieldNamesAreThoseUnderJsonNames() throws Exception {
        JsonNode camel = JSON.readTree(CliRunner.run("audit",
                "src/test/resources/real/recorded/otel-js/got-post-timeout-keyless.json").out());
        JsonNode snake = audit("got-post-timeout-keyless-proto-names.json", 2);
        assertThat(rules(snake)).containsExactly("timeout-replay/keyless 2").isEqualTo(rules(camel));
        for (String field : List.of("operation", "message", "evidence")) {
            assertThat(snake.at("/findings/0/" + field)).as(field).isEqualTo(camel.at("/findings/0/" + field));
        }
        assertThat(notes(snake)).isEqualTo(notes(camel));
    }
}

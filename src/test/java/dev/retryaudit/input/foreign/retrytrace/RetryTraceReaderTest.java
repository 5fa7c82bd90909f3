package dev.retryaudit.input.foreign.retrytrace;

import dev.retryaudit.input.InputSet;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.Effect;
import dev.retryaudit.model.Field;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Outcome;
import dev.retryaudit.text.Times;
import java.io.ByteArrayInputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RetryTraceReaderTest {

    @Test
    void aTraceIsOneServerObservedGetOperationNumberedBySequence() throws Exception {
        List<Operation> ops = readResource("retry-trace-seconds-early.json", InputFormat.RETRY_TRACE);

        assertThat(ops).hasSize(1);
        Operation op = ops.get(0);
        assertThat(op.id()).isEqualTo("0b9d7c1e-8f2a-4e3b-a6c4-5d1e9f0a2b37");
        assertThat(op.runId()).isEqualTo(op.id());
        assertThat(op.tool()).isEqualTo("retry-trace");
        assertThat(op.method()).isEqualTo("GET");
        assertThat(op.effect()).isEqualTo(Effect.READ);
        assertThat(op.serverClock()).isTrue();
        assertThat(op.attempts()).extracting(Attempt::attemptId).containsExactly(1, 2, 3);
        assertThat(op.attempts()).extracting(Attempt::status).containsExactly(503, 503, 200);
        assertThat(op.attempts()).extracting(Attempt::retryAfter).containsExactly("2", "2", null);
        assertThat(op.attempts()).extracting(Attempt::outcome)
                .containsExactly(Outcome.ERROR, Outcome.ERROR, Outcome.SUCCESS);
        Attempt second = op.attempts().get(1);
        assertThat(Times.format(second.startMillis())).isEqualTo("2026-09-07T10:05:00.412Z");
        assertThat(second.responseMillis()).isEqualTo(second.startMillis());
        assertThat(second.location().line()).isEqualTo(1);
        assertThat(second.location().pointer()).isEqualTo("/attempts/1");
        assertThat(op.location().pointer()).isEmpty();
    }

    @Test
    void theFormatCarriesNoneOfTheClientSideFields() throws Exception {
        Operation op = readResource("retry-trace-seconds-honoured.json", InputFormat.RETRY_TRACE).get(0);

        for (Field f : Field.values()) {
            assertThat(op.carries(f)).as(f.name()).isFalse();
        }
        assertThat(op.attempts()).allSatisfy(a -> {
            assertThat(a.spanId()).isNull();
            assertThat(a.commitState()).isNull();
            assertThat(a.retryReason()).isNull();
        });
    }

    @Test
    void anHttpDateRetryAfterIsKeptRaw() throws Exception {
        Operation op = readResource("retry-trace-http-date-early.json", InputFormat.RETRY_TRACE).get(0);

        assertThat(op.attempts().get(0).retryAfter()).isEqualTo("Mon, 07 Sep 2026 10:10:02 GMT");
    }

    @Test
    void aFindingRecordIsReadFromItsEvidenceUnderItsId() throws Exception {
        List<Operation> ops = readResource("finding-record.json", InputFormat.AUTO);

        assertThat(ops).hasSize(1);
        Operation op = ops.get(0);
        assertThat(op.id()).isEqualTo("5b1e7a3c-2d4f-4e8a-9c1b-7f3e2a6d0b94");
        assertThat(op.runId()).isNull();
        assertThat(op.attempts()).extracting(Attempt::status).containsExactly(429, 200);
        assertThat(op.attempts().get(0).location().pointer()).isEqualTo("/evidence/attempts/0");
        assertThat(op.attempts().get(0).location().line()).isEqualTo(12);
    }

    @Test
    void aCurlComparisonGivesOneOperationPerObservation() throws Exception {
        List<Operation> ops = readResource("curl-comparison.json", InputFormat.AUTO);

        String source = resource("curl-comparison.json").toString();
        assertThat(ops).extracting(Operation::id).containsExactly(source + "#default", source + "#retry_enabled");
        assertThat(ops.get(0).attempts()).hasSize(1);
        assertThat(ops.get(1).attempts()).extracting(Attempt::attemptId).containsExactly(1, 2, 3);
        assertThat(ops.get(1).location().pointer()).isEqualTo("/observations/1");
        assertThat(ops.get(1).attempts().get(2).location().pointer()).isEqualTo("/observations/1/attempts/2");
    }

    @Test
    void autoDetectionChoosesRetryTraceForEachShape() throws Exception {
        for (String name : List.of("retry-trace-seconds-early.json", "finding-record.json", "curl-comparison.json")) {
            List<InputSummary> s = new InputSet(InputFormat.AUTO, Limits.DEFAULTS)
                    .readAll(List.of(InputSet.Source.of(resource(name).toString())), null, op -> { });
            assertThat(s.get(0).format()).as(name).isEqualTo("retry-trace");
        }
    }

    @Test
    void attemptsAreOrderedBySequenceWhateverTheirOrderInTheFile() throws Exception {
        Operation op = read("""
                {"run_id": "r", "attempts": [
                  {"sequence": 2, "received": "2026-09-07T10:00:01.000Z", "status": 200},
                  {"sequence": 1, "received": "2026-09-07T10:00:00.000Z", "status": 429, "retry_after": "1"}]}
                """).get(0);

        assertThat(op.attempts()).extracting(Attempt::attemptId).containsExactly(1, 2);
    }

    @Test
    void unknownFieldsAreSkippedAtEveryLevel() throws Exception {
        List<Operation> ops = read("""
                {"run_id": "r", "probe_url": {"nested": [1, 2]}, "attempts": [
                  {"sequence": 1, "received": "2026-09-07T10:00:00.000Z", "status": 200, "headers": {"x": "y"}}],
                 "limitations": ["a"], "future_field": null}
                """);

        assertThat(ops).hasSize(1);
    }

    @Test
    void aTraceWithoutAttemptsHoldsNoOperation() throws Exception {
        assertThat(read("{\"run_id\": \"r\", \"attempts\": [], \"reached_success\": false}")).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"attempts\": []}|1|1|$|missing required field run_id",
        "{\"run_id\": \"r\"}|1|1|$|missing required field attempts",
        "{\"run_id\": 7, \"attempts\": []}|1|12|$.run_id|expected a string, found an integer",
        "{\"run_id\": \"r\", \"attempts\": {}}|1|29|$.attempts|expected the attempts (a JSON array), found an object",
        "{\"run_id\": \"r\", \"attempts\": [{\"received\": \"2026-09-07T10:00:00Z\", \"status\": 200}]}|1|30|$.attempts[0]|missing required field sequence",
        "{\"run_id\": \"r\", \"attempts\": [{\"sequence\": 0}]}|1|43|$.attempts[0].sequence|number out of range: must be between 1 and 2147483647",
        "{\"run_id\": \"r\", \"attempts\": [{\"sequence\": 1, \"status\": 200}]}|1|30|$.attempts[0]|missing required field received",
        "{\"run_id\": \"r\", \"attempts\": [{\"sequence\": 1, \"received\": \"2026-09-07T10:00:00\"}]}|1|58|$.attempts[0].received|expected an RFC 3339 timestamp with an offset, like 2026-09-07T14:02:11.000Z",
        "{\"run_id\": \"r\", \"attempts\": [{\"sequence\": 1, \"received\": \"2026-09-07T10:00:00Z\"}]}|1|30|$.attempts[0]|missing required field status",
        "{\"run_id\": \"r\", \"attempts\": [{\"status\": 99}]}|1|41|$.attempts[0].status|number out of range: must be between 100 and 599",
        "{\"run_id\": \"r\", \"attempts\": [{\"retry_after\": 2}]}|1|46|$.attempts[0].retry_after|expected a string, found an integer",
        "{\"run_id\": \"r\", \"attempts\": [{\"gap_from_previous_ms\": -1}]}|1|55|$.attempts[0].gap_from_previous_ms|number out of range: must be between 0 and 9223372036854775807",
        "{\"run_id\": \"r\", \"header_format\": \"date\", \"attempts\": []}|1|34|$.header_format|expected one of seconds, http-date, retry-after-ms, retry-after-ms-and-seconds, http-date-past, none, negative, fractional",
        "{\"run_id\": \"r\", \"reached_success\": \"yes\", \"attempts\": []}|1|36|$.reached_success|expected true or false, found a string",
        "{\"run_id\": \"r\", \"created_at\": \"yesterday\", \"attempts\": []}|1|31|$.created_at|expected an RFC 3339 timestamp with an offset, like 2026-09-07T14:02:11.000Z",
        "{\"run_id\": \"r\", \"attempts\": []} {}|1|33|$|trailing content after the JSON document",
        "{\"evidence\": {\"attempts\": []}}|1|1|$|missing required field id",
        "{\"id\": \"f\", \"evidence\": {\"status\": 429}}|1|25|$.evidence|missing required field attempts",
        "{\"id\": \"f\", \"evidence\": [1]}|1|25|$.evidence|expected the evidence of a finding record (a JSON object), found an array",
        "{\"format\": \"retry-trace-curl-comparison-v2\", \"observations\": []}|1|12|$.format|unsupported format: this reader reads retry-trace-curl-comparison-v1",
        "{\"format\": \"retry-trace-curl-comparison-v1\"}|1|1|$|missing required field observations",
        "{\"format\": \"retry-trace-curl-comparison-v1\", \"observations\": [{\"mode\": \"default\"}]}|1|63|$.observations[0]|missing required field attempts",
        "[]|1|1|$|expected a retry trace (a JSON object), found an array",
    })
    void badValuesOfUsedFieldsAreRejectedWithLineColumnAndPath(String json, long line, long column, String path,
            String message) {
        assertThatThrownBy(() -> read(json))
                .isInstanceOfSatisfying(InputException.class, e -> {
                    assertThat(e.kind()).isEqualTo(InputException.Kind.REJECTED);
                    assertThat(e.message()).isEqualTo(path + ": " + message);
                    assertThat(e.path()).isEqualTo(path);
                    assertThat(e.line()).isEqualTo(line);
                    assertThat(e.column()).isEqualTo(column);
                });
    }

    @Test
    void theAttemptsLimitApplies() {
        StringBuilder b = new StringBuilder("{\"run_id\": \"r\", \"attempts\": [");
        for (int i = 1; i <= 3; i++) {
            b.append(i > 1 ? "," : "").append("{\"sequence\": ").append(i)
                    .append(", \"received\": \"2026-09-07T10:00:00Z\", \"status\": 429}");
        }
        Limits two = new Limits(1 << 20, 10, 2, 1000, 64);
        assertThatThrownBy(() -> read(b.append("]}").toString(), two))
                .isInstanceOfSatisfying(InputException.class, e -> assertThat(e.message())
                        .isEqualTo("$.attempts[2]: trace has more than 2 attempts, the attempts-per-operation limit"));
    }

    private static List<Operation> read(String json) throws InputException {
        return read(json, Limits.DEFAULTS);
    }

    private static List<Operation> read(String json, Limits limits) throws InputException {
        List<Operation> ops = new ArrayList<>();
        new InputSet(InputFormat.RETRY_TRACE, limits).readAll(List.of(InputSet.Source.of("-")),
                new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), ops::add);
        return ops;
    }

    private static List<Operation> readResource(String name, InputFormat format) throws Exception {
        List<Operation> ops = new ArrayList<>();
        new InputSet(format, Limits.DEFAULTS).readAll(List.of(InputSet.Source.of(resource(name).toString())), null,
                ops::add);
        return ops;
    }

    static Path resource(String name) throws URISyntaxException {
        return Path.of(RetryTraceReaderTest.class.getResource("/retry-trace/" + name).toURI());
    }
}

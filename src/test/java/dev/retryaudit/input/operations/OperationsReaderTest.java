package dev.retryaudit.input.operations;

import dev.retryaudit.input.Inputs;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.CheckResult;
import dev.retryaudit.model.CommitState;
import dev.retryaudit.model.Effect;
import dev.retryaudit.model.ErrorClass;
import dev.retryaudit.model.GrpcStatus;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Outcome;
import dev.retryaudit.text.Times;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import static org.assertj.core.api.Assertions.assertThat;

/** The operations reader: what it reads, and every class of input it rejects with FILE:LINE:COL and a JSON path. */
class OperationsReaderTest {
    private static String doc(String operation) {
        return "{\"version\": 1, \"operations\": [\n" + operation + "\n]}";
    }

    private static final String GOOD_ATTEMPT = "{\"attempt_id\": 1, \"started_at\": \"2026-09-07T14:02:03.000Z\"}";

    @Test
    void readsEveryField() throws Exception {
        String json = """
                {"$schema": "x", "version": 1, "source": "test", "operations": [
                  {"id": "cart-1", "tool": "charge_cart", "effect": "write", "method": "POST",
                   "target": "https://pay.example/v1/charges", "idempotency_key": "k-1", "run_id": "run-9",
                   "parent": {"operation": "turn-1", "attempt": 2}, "deadline_ms": 30000,
                   "reported_outcome": "success", "clock": "client",
                   "attempts": [
                     {"attempt_id": 2, "span_id": "a2", "started_at": "2026-09-07T14:02:12.400Z",
                      "ended_at": "2026-09-07T16:02:12.900+02:00", "outcome": "success", "status": 200,
                      "commit_state": "committed", "retry_reason": "timeout", "request_hash": "h1",
                      "retry_after": 3, "response_date": "Mon, 07 Sep 2026 14:02:12 GMT"},
                     {"attempt_id": 1, "span_id": "a1", "started_at": "2026-09-07T14:02:03.000Z",
                      "duration_ms": 8000.5, "outcome": "timeout", "commit_state": "unknown",
                      "commit_state_source": "runner", "retry_reason": "", "error_class": null,
                      "attributes": {"b": [1, {"c": null}], "a": "x"}}
                   ],
                   "checks": [{"after_attempt": 1, "at": "2026-09-07T14:02:11.900Z", "kind": "ledger_read",
                               "result": "not_found", "count": 0}],
                   "attributes": {"cart": "c-1844"}}
                ]}
                """;
        List<Operation> ops = Inputs.read("ops.json", json);
        assertThat(ops).hasSize(1);
        Operation op = ops.get(0);
        assertThat(op.id()).isEqualTo("cart-1");
        assertThat(op.effect()).isEqualTo(Effect.WRITE);
        assertThat(op.parentOperation()).isEqualTo("turn-1");
        assertThat(op.parentAttempt()).isEqualTo(2);
        assertThat(op.deadlineMs()).isEqualTo(30000L);
        assertThat(op.attributesJson()).isEqualTo("{\"cart\":\"c-1844\"}");
        assertThat(op.attempts()).extracting(Attempt::attemptId).containsExactly(1, 2);
        Attempt first = op.attempts().get(0);
        assertThat(first.outcome()).isEqualTo(Outcome.TIMEOUT);
        assertThat(first.commitState()).isEqualTo(CommitState.UNKNOWN);
        assertThat(first.responseMillis()).isEqualTo(first.startMillis() + 8001);
        assertThat(first.attributesJson()).isEqualTo("{\"b\":[1,{\"c\":null}],\"a\":\"x\"}");
        assertThat(first.location().pointer()).isEqualTo("/operations/0/attempts/1");
        assertThat(first.location().line()).isEqualTo(11);
        Attempt second = op.attempts().get(1);
        assertThat(second.endMillis() - second.startMillis()).isEqualTo(500);
        assertThat(second.retryAfter()).isEqualTo("3");
        assertThat(Times.format(second.startMillis())).isEqualTo("2026-09-07T14:02:12.400Z");
        assertThat(op.checks()).singleElement().satisfies(c -> {
            assertThat(c.result()).isEqualTo(CheckResult.NOT_FOUND);
            assertThat(c.count()).isZero();
        });
        assertThat(op.location().pointer()).isEqualTo("/operations/0");
        assertThat(op.location().line()).isEqualTo(2);
    }

    @Test
    void nullIsAbsentForOptionalFields() throws Exception {
        Operation op = Inputs.read("ops.json", doc("{\"id\": \"a\", \"tool\": \"t\", \"effect\": null, \"method\": null,"
                + " \"attempts\": [{\"attempt_id\": 1, \"status\": null, \"started_at\": null}]}")).get(0);
        assertThat(op.effect()).isNull();
        assertThat(op.attempts().get(0).status()).isNull();
        assertThat(op.attempts().get(0).hasStart()).isFalse();
    }

    @Test
    void acceptsByteOrderMark() throws Exception {
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        byte[] body = doc("{\"id\": \"a\", \"tool\": \"t\", \"attempts\": [" + GOOD_ATTEMPT + "]}").getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[bom.length + body.length];
        System.arraycopy(bom, 0, all, 0, bom.length);
        System.arraycopy(body, 0, all, bom.length, body.length);
        assertThat(Inputs.read("bom.json", new java.io.ByteArrayInputStream(all), InputFormat.AUTO, Limits.DEFAULTS)).hasSize(1);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        unknown field with hint   | {"id": "a", "tool": "t", "attempts": [{"attempt_id": 1, "comit_state": "unknown"}]} | x.json:2:57: error: $.operations[0].attempts[0].comit_state: unknown field (did you mean commit_state?)
        unknown operation field   | {"id": "a", "tool": "t", "toool": 1, "attempts": []}                                | x.json:2:26: error: $.operations[0].toool: unknown field (did you mean tool?)
        duplicate key             | {"id": "a", "id": "b", "tool": "t", "attempts": []}                                 | x.json:2:13: error: $.operations[0].id: duplicate field: the object already has it
        wrong type                | {"id": 7, "tool": "t", "attempts": []}                                              | x.json:2:8: error: $.operations[0].id: expected a string, found an integer
        bad enum                  | {"id": "a", "tool": "t", "effect": "delete", "attempts": []}                        | x.json:2:36: error: $.operations[0].effect: expected one of read, write
        timestamp without offset  | {"id": "a", "tool": "t", "attempts": [{"attempt_id": 1, "started_at": "2026-09-07T14:02:03"}]} | x.json:2:71: error: $.operations[0].attempts[0].started_at: expected an RFC 3339 timestamp with an offset, like 2026-09-07T14:02:11.000Z
        timestamp local           | {"id": "a", "tool": "t", "attempts": [{"attempt_id": 1, "started_at": "2026-09-07T14:02:03.5"}]} | x.json:2:71: error: $.operations[0].attempts[0].started_at: a timestamp needs an offset (Z or +HH:MM); local times are ambiguous
        impossible date           | {"id": "a", "tool": "t", "attempts": [{"attempt_id": 1, "started_at": "2026-02-30T14:02:03Z"}]} | x.json:2:71: error: $.operations[0].attempts[0].started_at: not a valid date and time
        number out of range       | {"id": "a", "tool": "t", "attempts": [{"attempt_id": 0}]}                          | x.json:2:54: error: $.operations[0].attempts[0].attempt_id: number out of range: must be between 1 and 2147483647
        status out of range       | {"id": "a", "tool": "t", "attempts": [{"attempt_id": 1, "status": 600}]}           | x.json:2:67: error: $.operations[0].attempts[0].status: number out of range: must be between 100 and 599
        huge integer              | {"id": "a", "tool": "t", "attempts": [{"attempt_id": 99999999999999999999999}]}    | x.json:2:54: error: $.operations[0].attempts[0].attempt_id: number out of range: must be between 1 and 2147483647
        fraction for integer      | {"id": "a", "tool": "t", "attempts": [{"attempt_id": 1.0}]}                        | x.json:2:54: error: $.operations[0].attempts[0].attempt_id: expected an integer, found a fractional number
        negative duration         | {"id": "a", "tool": "t", "attempts": [{"attempt_id": 1, "duration_ms": -1}]}       | x.json:2:72: error: $.operations[0].attempts[0].duration_ms: number out of range: must be between 0 and 1e15
        negative retry-after int  | {"id": "a", "tool": "t", "attempts": [{"attempt_id": 1, "retry_after": -1}]}       | x.json:2:72: error: $.operations[0].attempts[0].retry_after: number out of range: must be between 0 and 9223372036854775807
        missing attempt_id        | {"id": "a", "tool": "t", "attempts": [{"status": 200}]}                             | x.json:2:39: error: $.operations[0].attempts[0]: missing required field attempt_id
        missing tool              | {"id": "a", "attempts": [{"attempt_id": 1}]}                                        | x.json:2:1: error: $.operations[0]: missing required field tool
        null required id          | {"id": null, "tool": "t", "attempts": [{"attempt_id": 1}]}                           | x.json:2:1: error: $.operations[0]: missing required field id
        no attempts               | {"id": "a", "tool": "t", "attempts": []}                                            | x.json:2:1: error: $.operations[0].attempts: an operation needs at least one attempt
        ended before started      | {"id": "a", "tool": "t", "attempts": [{"attempt_id": 1, "started_at": "2026-09-07T14:02:03Z", "ended_at": "2026-09-07T14:02:02Z"}]} | x.json:2:107: error: $.operations[0].attempts[0].ended_at: ended_at is before started_at
        check without result      | {"id": "a", "tool": "t", "attempts": [{"attempt_id": 1}], "checks": [{"after_attempt": 1}]} | x.json:2:70: error: $.operations[0].checks[0]: missing required field result
        parent without attempt    | {"id": "a", "tool": "t", "parent": {"operation": "p"}, "attempts": [{"attempt_id": 1}]} | x.json:2:36: error: $.operations[0].parent: missing required field attempt
        attributes not an object  | {"id": "a", "tool": "t", "attributes": [1], "attempts": [{"attempt_id": 1}]}       | x.json:2:40: error: $.operations[0].attributes: expected an object (a JSON object), found an array
        duplicate in attributes   | {"id": "a", "tool": "t", "attributes": {"k": 1, "k": 2}, "attempts": [{"attempt_id": 1}]} | x.json:2:49: error: $.operations[0].attributes.k: duplicate field: the object already has it
        operation not an object   | 42                                                                                  | x.json:2:1: error: $.operations[0]: expected an operation (a JSON object), found an integer
        duplicate operation id    | {"id": "a", "tool": "t", "attempts": [{"attempt_id": 1}]}, {"id": "a", "tool": "t", "attempts": [{"attempt_id": 1}]} | x.json:2:60: error: $.operations[1]: duplicate operation id: operation ids must be unique in the input set
        malformed JSON            | {"id": "a", "tool": "t", "attempts": [{"attempt_id": 1,}]}                          | x.json:2:56: error: $.operations[0].attempts[0].attempt_id: malformed JSON: Unexpected character ('}' (code 125)): was expecting double-quote to start field name
        """)
    void rejects(String what, String operation, String diagnostic) {
        assertThat(Inputs.rejection("x.json", doc(operation))).isEqualTo(diagnostic);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        trailing content     | {"version": 1, "operations": []} {}         | x.json:1:34: error: $: trailing content after the JSON document
        missing version      | {"operations": []}                          | x.json:1:1: error: $: missing required field version
        wrong version        | {"version": 2, "operations": []}            | x.json:1:13: error: $.version: unsupported version: this reader reads version 1
        unknown top field    | {"version": 1, "operation": []}             | x.json:1:16: error: $.operation: unknown field (did you mean operations?)
        not an object        | [1, 2]                                      | x.json:1:1: error: cannot tell the input format from the content; name it with --input-format (one of operations, spans, retry-trace, otlp, har, zipkin, jaeger)
        cut short            | {"version": 1, "operations": [              | x.json:1:31: error: $.operations: malformed JSON: Unexpected end-of-input: expected close marker for Array
        """)
    void rejectsDocuments(String what, String json, String diagnostic) {
        assertThat(Inputs.rejection("x.json", json)).isEqualTo(diagnostic);
    }

    @Test
    void rejectsInvalidUtf8() {
        byte[] bytes = "{\"version\": 1, \"source\": \"\u00ff\", \"operations\": []}".getBytes(StandardCharsets.ISO_8859_1);
        InputException e = org.junit.jupiter.api.Assertions.assertThrows(InputException.class,
                () -> Inputs.read("x.json", new java.io.ByteArrayInputStream(bytes), InputFormat.OPERATIONS, Limits.DEFAULTS));
        assertThat(e.diagnostic()).startsWith("x.json:1:").contains("$.source: malformed JSON: Invalid UTF-8");
        assertThat(e.kind()).isEqualTo(InputException.Kind.REJECTED);
    }

    @Test
    void rejectsEmptyInput() {
        assertThat(Inputs.rejection("x.json", "  \n ")).isEqualTo("x.json:1:1: error: empty input: expected a JSON document or JSON Lines");
    }

    @Test
    void controlCharactersInNamesAreEscapedInMessages() {
        String d = Inputs.rejection("x.json", doc("{\"id\": \"a\", \"tool\": \"t\", \"\\u001b[31mred\": 1, \"attempts\": []}"));
        assertThat(d).doesNotContain("\u001b").contains("\\e[31mred");
    }

    @Test
    void aGrpcAttemptCarriesItsStatusByNameOrNumberAndItsPushback() throws Exception {
        Operation op = Inputs.read("ops.json", doc("""
                {"id": "g", "tool": "shop.v1.Cart/AddItem", "attempts": [
                  {"attempt_id": 1, "grpc_status": "DEADLINE_EXCEEDED"},
                  {"attempt_id": 2, "grpc_status": 14, "grpc_retry_pushback_ms": -1, "outcome": "connection_error"},
                  {"attempt_id": 3, "grpc_status": null, "grpc_retry_pushback_ms": "250"}]}""")).get(0);
        Attempt first = op.attempts().get(0);
        assertThat(first.grpcStatus()).isEqualTo(GrpcStatus.DEADLINE_EXCEEDED);
        assertThat(first.outcome()).as("implied by the status").isEqualTo(Outcome.TIMEOUT);
        Attempt second = op.attempts().get(1);
        assertThat(second.grpcStatus()).isEqualTo(GrpcStatus.UNAVAILABLE);
        assertThat(second.outcome()).as("as given").isEqualTo(Outcome.CONNECTION_ERROR);
        assertThat(second.errorClass()).isEqualTo(ErrorClass.UNAVAILABLE);
        assertThat(second.retryPushback()).isEqualTo("-1");
        Attempt third = op.attempts().get(2);
        assertThat(third.grpcStatus()).isNull();
        assertThat(third.retryPushback()).isEqualTo("250");
        assertThat(third.location().pointer()).isEqualTo("/operations/0/attempts/2");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "name in lower case | \"unavailable\" | x.json:2:72: error: $.operations[0].attempts[0].grpc_status: expected a gRPC status code: its name (OK, CANCELLED, ..., UNAUTHENTICATED) or its number 0 to 16 (did you mean UNAVAILABLE?)",
        "code out of range | 17 | x.json:2:72: error: $.operations[0].attempts[0].grpc_status: number out of range: must be between 0 and 16",
        "boolean | true | x.json:2:72: error: $.operations[0].attempts[0].grpc_status: expected a gRPC status code: its name (OK, CANCELLED, ..., UNAUTHENTICATED) or its number 0 to 16",
    })
    void aBadGrpcStatusIsRejected(String what, String value, String diagnostic) {
        assertThat(Inputs.rejection("x.json", doc("{\"id\": \"g\", \"tool\": \"t\", \"attempts\": [{\"attempt_id\": 1, "
                + "\"grpc_status\": " + value + "}]}"))).isEqualTo(diagnostic);
    }
}

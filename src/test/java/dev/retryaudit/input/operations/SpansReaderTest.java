package dev.retryaudit.input.operations;

import dev.retryaudit.input.Inputs;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Operation;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import static org.assertj.core.api.Assertions.assertThat;

/** The spans reader: grouping lines into operations, and every class of line it rejects. */
class SpansReaderTest {
    @Test
    void groupsByOperationIdThenKeyInOrderOfFirstLine() throws Exception {
        String jsonl = """
                {"operation_id":"b","tool":"t","attempt_id":2,"retry_reason":"x"}

                {"idempotency_key":"k-1","tool":"charge","attempt_id":1,"parent_run_id":"run-1"}
                {"operation_id":"b","tool":"t","attempt_id":1,"span_id":"s"}
                {"type":"check","idempotency_key":"k-1","after_attempt":1,"result":"not_found","count":0}
                {"type":"attempt","idempotency_key":"k-1","attempt_id":2,"parent_run_id":"run-1"}
                """;
        List<Operation> ops = Inputs.read("s.jsonl", jsonl);
        assertThat(ops).extracting(Operation::id).containsExactly("b", "k-1");
        Operation b = ops.get(0);
        assertThat(b.attempts()).extracting(Attempt::attemptId).containsExactly(1, 2);
        assertThat(b.attempts()).extracting(a -> a.location().line()).containsExactly(4L, 1L);
        assertThat(b.location().line()).isEqualTo(1);
        assertThat(b.location().pointer()).isNull();
        Operation k = ops.get(1);
        assertThat(k.tool()).isEqualTo("charge");
        assertThat(k.runId()).isEqualTo("run-1");
        assertThat(k.idempotencyKey()).isEqualTo("k-1");
        assertThat(k.checks()).singleElement().satisfies(c -> assertThat(c.location().line()).isEqualTo(5));
    }

    @Test
    void operationFieldsMayBeGivenOnSomeLinesOnly() throws Exception {
        Operation op = Inputs.read("s.jsonl", """
                {"operation_id":"a","attempt_id":1}
                {"operation_id":"a","attempt_id":2,"tool":"t","method":"POST","retry_reason":"x"}
                """).get(0);
        assertThat(op.tool()).isEqualTo("t");
        assertThat(op.method()).isEqualTo("POST");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        no group key           | {"tool":"t","attempt_id":1}                                                   | s.jsonl:1:1: error: $: a span line needs operation_id or idempotency_key to be grouped into an operation
        disagreeing tool       | {"operation_id":"a","tool":"t","attempt_id":1}\\n{"operation_id":"a","tool":"u","attempt_id":2} | s.jsonl:2:1: error: $.tool: disagrees with line 1 of the same operation
        disagreeing run        | {"operation_id":"a","tool":"t","parent_run_id":"r1","attempt_id":1}\\n{"operation_id":"a","parent_run_id":"r2","attempt_id":2} | s.jsonl:2:1: error: $.parent_run_id: disagrees with line 1 of the same operation
        missing attempt_id     | {"operation_id":"a","tool":"t"}                                               | s.jsonl:1:1: error: $: missing required field attempt_id
        missing tool           | {"operation_id":"a","attempt_id":1}                                           | s.jsonl:1:1: error: $.tool: missing required field tool: no line of this operation carries it
        bad commit_state       | {"operation_id":"a","tool":"t","attempt_id":1,"commit_state":"maybe"}         | s.jsonl:1:62: error: $.commit_state: expected one of unknown, committed, rejected, not_sent
        unknown field          | {"operation_id":"a","tool":"t","attempt_id":1,"retry_reson":""}               | s.jsonl:1:47: error: $.retry_reson: unknown field (did you mean retry_reason?)
        bad type value         | {"operation_id":"a","tool":"t","attempt_id":1,"type":"span"}                  | s.jsonl:1:54: error: $.type: expected one of attempt, check
        check field on attempt | {"operation_id":"a","tool":"t","attempt_id":1,"after_attempt":1}              | s.jsonl:1:1: error: $.after_attempt: a check field on an attempt line; checks say "type": "check"
        attempt field on check | {"operation_id":"a","tool":"t","attempt_id":1}\\n{"type":"check","operation_id":"a","after_attempt":1,"result":"committed","status":200} | s.jsonl:2:1: error: $.status: an attempt field on a check line ("type": "check")
        check without attempts | {"type":"check","operation_id":"a","after_attempt":1,"result":"committed"}    | s.jsonl:1:1: error: $: a check line for an operation that has no attempt lines
        two values on a line   | {"operation_id":"a","tool":"t","attempt_id":1} {"operation_id":"b","tool":"t","attempt_id":1} | s.jsonl:1:48: error: $: a second JSON value on one line: JSON Lines holds one span a line
        object over two lines  | {"operation_id":"a",\\n"tool":"t","attempt_id":1}                              | s.jsonl:1:1: error: $: a span must fit on one line (JSON Lines); this object spans several
        not an object          | [1]                                                                           | s.jsonl:1:1: error: $: expected one JSON object a line, found an array
        duplicate key          | {"operation_id":"a","tool":"t","attempt_id":1,"attempt_id":2}                 | s.jsonl:1:47: error: $.attempt_id: duplicate field: the object already has it
        operation_id a number  | {"operation_id":5,"tool":"t","attempt_id":1}                                  | s.jsonl:1:17: error: $.operation_id: expected a string, found an integer
        span_id a number       | {"operation_id":"a","tool":"t","attempt_id":1,"span_id":7}                    | s.jsonl:1:57: error: $.span_id: expected a string, found an integer
        span_id on a check     | {"operation_id":"a","tool":"t","attempt_id":1}\\n{"type":"check","operation_id":"a","after_attempt":1,"result":"committed","span_id":"x"} | s.jsonl:2:1: error: $.span_id: an attempt field on a check line ("type": "check")
        key equal to an id     | {"operation_id":"k","tool":"t","attempt_id":1}\\n{"idempotency_key":"k","tool":"t","attempt_id":1} | s.jsonl:2:1: error: $: duplicate operation id: operation ids must be unique in the input set
        truncated line         | {"operation_id":"a","tool":"t","attempt_id":1}\\n{"operation_id":"a","to     | s.jsonl:2:24: error: $.operation_id: malformed JSON: Unexpected end-of-input in field name
        """)
    void rejects(String what, String lines, String diagnostic) {
        assertThat(Inputs.rejection("s.jsonl", lines.replace("\\n", "\n"))).isEqualTo(diagnostic);
    }

    @Test
    void idsKeepEveryCharacter() throws Exception {
        String longSpan = "s".repeat(300);
        List<Operation> ops = Inputs.read("s.jsonl", "{\"operation_id\":\"\u00e9-1\",\"tool\":\"t\",\"attempt_id\":1,\"span_id\":\""
                + longSpan + "\"}\n"
                + "{\"operation_id\":null,\"idempotency_key\":\"k2\",\"tool\":\"t\",\"attempt_id\":1,\"span_id\":null}\n"
                + "{\"operation_id\":\"\u00e9-1\",\"tool\":\"t\",\"attempt_id\":2,\"span_id\":\"\u00fc\u4e2d\"}\n"
                + "{\"operation_id\":\"\u00e9-10\",\"tool\":\"t\",\"attempt_id\":1,\"span_id\":\"\"}\n");
        assertThat(ops).extracting(Operation::id).containsExactly("\u00e9-1", "k2", "\u00e9-10");
        assertThat(ops.get(0).attempts()).extracting(Attempt::spanId).containsExactly(longSpan, "\u00fc\u4e2d");
        assertThat(ops.get(1).attempts()).extracting(Attempt::spanId).containsOnlyNulls();
        assertThat(ops.get(2).attempts()).extracting(Attempt::spanId).containsExactly("");
    }

    @Test
    void idsOverTheStringLimitAreRefusedWhereTheyStand() {
        Limits ten = new Limits(1L << 30, 10, 10, 10, 64);
        InputException opId = Inputs.rejected(InputFormat.SPANS,
                "{\"operation_id\":\"abcdefghijkl\",\"tool\":\"t\",\"attempt_id\":1}\n", ten);
        assertThat(opId.line() + ":" + opId.column() + " " + opId.path() + " " + opId.detail())
                .isEqualTo("1:17 $.operation_id a string of 12 characters exceeds the string limit of 10");
        InputException spanId = Inputs.rejected(InputFormat.SPANS,
                "{\"operation_id\":\"a\",\"tool\":\"t\",\"attempt_id\":1,\"span_id\":\"\u00e9\u4e2dabcdefghi\"}\n", ten);
        assertThat(spanId.line() + ":" + spanId.column() + " " + spanId.path() + " " + spanId.detail())
                .isEqualTo("1:57 $.span_id a string of 11 characters exceeds the string limit of 10");
        assertThat(Inputs.rejected(InputFormat.SPANS,
                "{\"operation_id\":\"abcdefghij\",\"tool\":\"t\",\"attempt_id\":1,\"span_id\":\"\u00e9\u4e2dabcdefgh\"}\n"
                        + "{\"tool\":\"t\",\"attempt_id\":1}\n", ten).line()).isEqualTo(2);
    }

    @Test
    void canonicalSeedFileGroupsByKey() throws Exception {
        List<Operation> ops = Inputs.read("seed.jsonl", """
                {"parent_run_id":"run-9","attempt_id":1,"idempotency_key":"cart-c-1844","commit_state":"unknown","retry_reason":"","tool":"charge_cart"}
                {"parent_run_id":"run-9","attempt_id":2,"idempotency_key":"cart-c-1844","commit_state":"committed","retry_reason":"timeout","tool":"charge_cart"}
                """);
        assertThat(ops).singleElement().satisfies(op -> {
            assertThat(op.id()).isEqualTo("cart-c-1844");
            assertThat(op.attempts()).hasSize(2);
        });
    }

    /** Reads with chunks of {@code bytes} bytes: a few lines each, so that the lines are parsed on several threads. */
    @Test
    void aSpanLineCarriesAGrpcStatusAndPushback() throws Exception {
        Operation op = Inputs.read("s.jsonl", """
                {"operation_id":"g","tool":"shop.v1.Cart/AddItem","attempt_id":1,"grpc_status":"RESOURCE_EXHAUSTED","grpc_retry_pushback_ms":"900"}
                {"operation_id":"g","attempt_id":2,"grpc_status":0}
                """).get(0);
        assertThat(op.attempts()).extracting(Attempt::grpcStatus)
                .containsExactly(dev.retryaudit.model.GrpcStatus.RESOURCE_EXHAUSTED, dev.retryaudit.model.GrpcStatus.OK);
        assertThat(op.attempts().get(0).retryPushback()).isEqualTo("900");
        assertThat(op.attempts().get(1).outcome()).isEqualTo(dev.retryaudit.model.Outcome.SUCCESS);
        assertThat(Inputs.rejection("s.jsonl", "{\"type\":\"check\",\"operation_id\":\"g\",\"after_attempt\":1,"
                + "\"result\":\"not_found\",\"grpc_status\":\"OK\"}\n")).contains("grpc_status");
    }

    private static <T> T inChunksOf(int bytes, java.util.concurrent.Callable<T> read) throws Exception {
        System.setProperty("retryaudit.chunkBytes", Integer.toString(bytes));
        try {
            return read.call();
        } finally {
            System.clearProperty("retryaudit.chunkBytes");
        }
    }

    @ParameterizedTest(name = "line ends {0}")
    @ValueSource(strings = {"LF", "CRLF", "CR"})
    void linesReadInChunksArePlacedAsInOnePass(String ends) throws Exception {
        String eol = switch (ends) {
            case "LF" -> "\n";
            case "CRLF" -> "\r\n";
            default -> "\r";
        };
        StringBuilder b = new StringBuilder();
        for (int i = 1; i <= 40; i++) {
            b.append("{\"operation_id\":\"o").append(i % 7).append("\",\"tool\":\"t\",\"attempt_id\":").append(1 + i / 7)
                    .append('}').append(i % 5 == 0 ? eol + eol : eol);
        }
        String good = b.toString();
        List<Operation> onePass = Inputs.read("s.jsonl", good);
        List<Operation> chunked = inChunksOf(64, () -> Inputs.read("s.jsonl", good));
        assertThat(chunked).isEqualTo(onePass);
        assertThat(chunked.get(0).attempts()).extracting(a -> a.location().line()).containsExactly(1L, 9L, 17L, 26L, 34L, 43L);

        String bad = good + "{\"operation_id\":\"o3\",\"tool\":\"u\",\"attempt_id\":9}" + eol;
        String expected = Inputs.rejection("s.jsonl", bad);
        assertThat(expected).startsWith("s.jsonl:49:1: error: $.tool: disagrees with line");
        assertThat(inChunksOf(64, () -> Inputs.rejection("s.jsonl", bad))).isEqualTo(expected);
        String broken = good.replace("\"attempt_id\":3}", "\"attempt_id\":3,}");
        assertThat(inChunksOf(64, () -> Inputs.rejection("s.jsonl", broken)))
                .isEqualTo(Inputs.rejection("s.jsonl", broken)).contains("malformed JSON");
    }
}

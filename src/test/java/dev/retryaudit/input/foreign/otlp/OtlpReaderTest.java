package dev.retryaudit.input.foreign.otlp;

import dev.retryaudit.text.Times;
import dev.retryaudit.input.Inputs;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.CommitState;
import dev.retryaudit.model.CommitStateSource;
import dev.retryaudit.model.Effect;
import dev.retryaudit.model.Field;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Outcome;
import dev.retryaudit.model.values.ParentRef;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

/** The OTLP/JSON reader: which spans are attempts, how they group into operations, and what each field maps to. */
class OtlpReaderTest {
    static final String T = "7d1c4e9a2b3f4a5c8e6d0f1a2b3c4d5e";
    static final String TOOL = "a1b2c3d4e5f60718";
    static final long BASE_MS = 1_788_789_720_000L;

    /** A one-line export of the given spans in one scope. */
    static String export(String... spans) {
        return "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[" + String.join(",", spans) + "]}]}]}";
    }

    /** A span of trace T under the tool span, started {@code startMs} after the base time, lasting 10 ms. */
    static String span(String id, long startMs, String... attributes) {
        return spanUnder(id, TOOL, startMs, attributes);
    }

    static String spanUnder(String id, String parent, long startMs, String... attributes) {
        return "{\"traceId\":\"" + T + "\",\"spanId\":\"" + id + "\",\"parentSpanId\":\"" + parent
                + "\",\"name\":\"s\",\"kind\":3,\"startTimeUnixNano\":\"" + nanos(startMs)
                + "\",\"endTimeUnixNano\":\"" + nanos(startMs + 10) + "\",\"attributes\":["
                + String.join(",", attributes) + "]}";
    }

    static String nanos(long offsetMs) {
        return (BASE_MS + offsetMs) + "000000";
    }

    static String str(String key, String value) {
        return "{\"key\":\"" + key + "\",\"value\":{\"stringValue\":\"" + value + "\"}}";
    }

    static String integer(String key, long value) {
        return "{\"key\":\"" + key + "\",\"value\":{\"intValue\":\"" + value + "\"}}";
    }

    static String[] get(String url, String... more) {
        return Stream.concat(Stream.of(str("http.request.method", "GET"), str("url.full", url)), Stream.of(more))
                .toArray(String[]::new);
    }

    static String[] withStatus(int status, String... more) {
        return Stream.concat(Stream.of(integer("http.response.status_code", status)), Stream.of(more))
                .toArray(String[]::new);
    }

    static String[] concat(String[] a, String... b) {
        return Stream.concat(Stream.of(a), Stream.of(b)).toArray(String[]::new);
    }

    static List<Operation> read(String text) throws InputException {
        return Inputs.read(InputFormat.OTLP, text);
    }

    static String resource(String name) throws IOException {
        try (InputStream in = OtlpReaderTest.class.getResourceAsStream("/input/otlp/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static long at(String instant) {
        return Instant.parse(instant).toEpochMilli();
    }

    @Test
    void readsADocumentOfToolAndHttpSpans() throws Exception {
        List<Operation> ops = read(resource("agent-checkout.json"));

        assertThat(ops).extracting(Operation::id).containsExactly(
                T + "/call_7", T + "/1111aaaa2222bb01", T + "/1111aaaa2222bb03", T + "/1111aaaa2222bb07",
                "0123456789abcdef0123456789abcdef/2222bbbb3333cc09");

        Operation tool = ops.get(0);
        assertThat(tool.tool()).isEqualTo("charge_cart");
        assertThat(tool.effect()).isNull();
        assertThat(tool.impliedEffect()).isEqualTo(Effect.WRITE);
        assertThat(tool.runId()).isEqualTo(T);
        assertThat(tool.serverClock()).isFalse();
        assertThat(tool.carried()).containsExactly(Field.SPAN_ID);
        assertThat(tool.location().line()).isEqualTo(21);
        assertThat(tool.location().column()).isEqualTo(13);
        assertThat(tool.location().pointer()).isEqualTo("/resourceSpans/0/scopeSpans/0/spans/0");
        Attempt toolCall = tool.attempts().get(0);
        assertThat(toolCall.spanId()).isEqualTo(TOOL);
        assertThat(toolCall.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(toolCall.startMillis()).isEqualTo(BASE_MS);
        assertThat(toolCall.endMillis()).isEqualTo(BASE_MS + 10_000);

        Operation charge = ops.get(1);
        assertThat(charge.tool()).isEqualTo("POST pay.example");
        assertThat(charge.method()).isEqualTo("POST");
        assertThat(charge.target()).isEqualTo("https://pay.example/v1/charges");
        assertThat(charge.idempotencyKey()).isEqualTo("k-1");
        assertThat(charge.impliedEffect()).isEqualTo(Effect.WRITE);
        assertThat(new ParentRef(charge.parentOperation(), charge.parentAttempt())).isEqualTo(new ParentRef(T + "/call_7", 1));
        assertThat(charge.carried()).containsExactlyInAnyOrder(Field.SPAN_ID, Field.IDEMPOTENCY_KEY);
        assertThat(charge.location().pointer()).isEqualTo("/resourceSpans/0/scopeSpans/0/spans/1");
        Attempt timedOut = charge.attempts().get(0);
        assertThat(timedOut.attemptId()).isEqualTo(1);
        assertThat(timedOut.outcome()).isEqualTo(Outcome.TIMEOUT);
        assertThat(timedOut.status()).isNull();
        assertThat(timedOut.startMillis()).isEqualTo(at("2026-09-07T14:02:00.100Z"));
        // 1788789728101000000 as a double would be ...100999936, a millisecond early.
        assertThat(timedOut.endMillis()).isEqualTo(at("2026-09-07T14:02:08.101Z"));
        Attempt committed = charge.attempts().get(1);
        assertThat(committed.attemptId()).isEqualTo(2);
        assertThat(committed.status()).isEqualTo(201);
        assertThat(committed.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(committed.idempotencyKey()).isEqualTo("k-1");
        assertThat(committed.retryReason()).isNull();
        assertThat(committed.commitState()).isNull();

        Operation inventory = ops.get(2);
        assertThat(inventory.tool()).isEqualTo("GET shop.example");
        assertThat(inventory.impliedEffect()).isEqualTo(Effect.READ);
        assertThat(inventory.attempts()).extracting(Attempt::status).containsExactly(503, 200);
        assertThat(inventory.attempts()).extracting(Attempt::outcome).containsExactly(Outcome.ERROR, Outcome.SUCCESS);
        assertThat(inventory.attempts().get(0).retryAfter()).isEqualTo("2");
        assertThat(inventory.attempts().get(0).responseDate()).isEqualTo("Mon, 07 Sep 2026 14:02:09 GMT");
        assertThat(inventory.attempts().get(1).startMillis() - inventory.attempts().get(0).responseMillis()).isEqualTo(300);
        assertThat(inventory.carried()).containsExactly(Field.SPAN_ID);

        Operation redirected = ops.get(3);
        assertThat(redirected.attempts()).hasSize(1);
        Attempt followed = redirected.attempts().get(0);
        assertThat(followed.spanId()).isEqualTo("1111aaaa2222bb07");
        assertThat(followed.startMillis()).isEqualTo(BASE_MS + 9500);
        assertThat(followed.endMillis()).isEqualTo(BASE_MS + 9560);
        assertThat(followed.status()).isEqualTo(200);
        assertThat(redirected.target()).isEqualTo("https://shop.example/a");
        assertThat(redirected.location().pointer()).isEqualTo("/resourceSpans/0/scopeSpans/1/spans/0");

        Operation legacy = ops.get(4);
        assertThat(legacy.tool()).isEqualTo("PUT files.example:8443");
        assertThat(legacy.runId()).isEqualTo("0123456789abcdef0123456789abcdef");
        assertThat(legacy.parentOperation()).isNull();
        assertThat(legacy.attempts()).singleElement().satisfies(a -> {
            assertThat(a.attemptId()).isEqualTo(1);
            assertThat(a.status()).isEqualTo(204);
            assertThat(a.startMillis()).isEqualTo(BASE_MS + 11_000);
        });
        assertThat(legacy.location().pointer()).isEqualTo("/resourceSpans/1/instrumentationLibrarySpans/0/spans/0");
    }

    @Test
    void ignoresSpansThatAreNotAttemptsEvenWithEmptyIds() throws Exception {
        String db = "{\"traceId\":\"\",\"spanId\":\"\",\"name\":\"SELECT\",\"startTimeUnixNano\":\"1\","
                + "\"attributes\":[" + str("db.system", "postgresql") + "],\"status\":{\"code\":2}}";
        String server = "{\"traceId\":\"" + T + "\",\"spanId\":\"1111aaaa2222bb01\",\"kind\":2,\"attributes\":["
                + str("http.request.method", "POST") + "]}";
        String chat = spanUnder("1111aaaa2222bb02", "", 0, str("gen_ai.operation.name", "chat"));
        assertThat(read(export(db, server, chat))).isEmpty();
        assertThat(read("{}")).isEmpty();
        assertThat(read("{\"resourceSpans\":[]}\n{\"resourceSpans\":null}\n")).isEmpty();
    }

    @Test
    void aServerSpanWithExplicitAttributesIsAnAttemptOnTheServerClock() throws Exception {
        String server = "{\"traceId\":\"" + T + "\",\"spanId\":\"1111aaaa2222bb01\",\"kind\":2,"
                + "\"startTimeUnixNano\":\"" + nanos(0) + "\",\"attributes\":["
                + str("http.request.method", "POST") + "," + str("retry_audit.operation_id", "op-1") + "]}";
        Operation op = read(export(server)).get(0);
        assertThat(op.id()).isEqualTo("op-1");
        assertThat(op.serverClock()).isTrue();
        assertThat(op.attempts().get(0).outcome()).isNull();
    }

    @Test
    void jsonLinesOfExportsGroupSpansAcrossLinesWithoutPointers() throws Exception {
        String first = export(span("1111aaaa2222bb01", 0, withStatus(503, get("https://a.example/x"))));
        String unrelated = export(span("1111aaaa2222bb09", 5, withStatus(200, get("https://b.example/y"))));
        String retry = export(span("1111aaaa2222bb02", 100,
                concat(withStatus(200, get("https://a.example/x")), integer("http.request.resend_count", 1))));
        List<Operation> ops = read(first + "\n" + unrelated + "\n\n" + retry + "\n");

        assertThat(ops).extracting(Operation::id).containsExactly(T + "/1111aaaa2222bb01", T + "/1111aaaa2222bb09");
        Operation op = ops.get(0);
        assertThat(op.attempts()).extracting(Attempt::attemptId).containsExactly(1, 2);
        assertThat(op.attempts()).extracting(a -> a.location().line()).containsExactly(1L, 4L);
        assertThat(op.attempts()).extracting(a -> a.location().pointer()).containsOnlyNulls();
        assertThat(op.attempts().get(1).location().column()).isEqualTo(first.indexOf("{\"traceId\"") + 1);
    }

    @Test
    void aSingleLineIsOneDocumentWithPointers() throws Exception {
        Operation op = read(export(span("1111aaaa2222bb01", 0, get("https://a.example/x"))) + "\n").get(0);
        assertThat(op.location().pointer()).isEqualTo("/resourceSpans/0/scopeSpans/0/spans/0");
    }

    @Test
    void firstSendsUnderOneParentAreSeparateOperations() throws Exception {
        List<Operation> ops = read(export(
                span("1111aaaa2222bb01", 0, withStatus(200, get("https://a.example/poll"))),
                span("1111aaaa2222bb02", 50, withStatus(200, get("https://a.example/poll")))));
        assertThat(ops).hasSize(2).allSatisfy(op -> assertThat(op.attempts()).hasSize(1));
    }

    @Test
    void aResendJoinsTheLatestOperationOfTheSameRequest() throws Exception {
        List<Operation> ops = read(export(
                span("1111aaaa2222bb01", 0, withStatus(200, get("https://a.example/x"))),
                span("1111aaaa2222bb02", 20, withStatus(500, get("https://a.example/x"))),
                span("1111aaaa2222bb03", 40, concat(withStatus(200, get("https://a.example/x")),
                        integer("http.request.resend_count", 1))),
                span("1111aaaa2222bb04", 45, concat(withStatus(200, get("https://a.example/other")),
                        integer("http.request.resend_count", 1)))));
        assertThat(ops).extracting(Operation::id).containsExactly(
                T + "/1111aaaa2222bb01", T + "/1111aaaa2222bb02", T + "/1111aaaa2222bb04");
        assertThat(ops.get(1).attempts()).extracting(Attempt::spanId).containsExactly("1111aaaa2222bb02", "1111aaaa2222bb03");
        // A resend whose first send is not in the trace is numbered by its resend count: the gap shows.
        assertThat(ops.get(2).attempts()).extracting(Attempt::attemptId).containsExactly(2);
    }

    @Test
    void rootRequestsOfDifferentServicesAreNotResendsOfEachOther() throws Exception {
        String root500 = spanUnder("1111aaaa2222bb01", "", 0, withStatus(500, get("https://a.example/x")));
        String rootResend = spanUnder("1111aaaa2222bb02", "", 40, concat(withStatus(200, get("https://a.example/x")),
                integer("http.request.resend_count", 1)));
        String checkout = "{\"attributes\":[" + str("service.name", "checkout") + "]}";
        String billing = "{\"attributes\":[" + str("service.name", "billing") + "]}";
        // The resource may stand before or after its spans: either way a span is linked within its own service.
        for (boolean resourceFirst : new boolean[] {true, false}) {
            String export = "{\"resourceSpans\":[" + resourceSpans(checkout, root500, resourceFirst) + ","
                    + resourceSpans(billing, rootResend, resourceFirst) + "]}";
            assertThat(read(export)).as("resource first: %s", resourceFirst).hasSize(2)
                    .allSatisfy(op -> assertThat(op.attempts()).hasSize(1));
            String same = "{\"resourceSpans\":[" + resourceSpans(checkout, root500, resourceFirst) + ","
                    + resourceSpans(checkout, rootResend, resourceFirst) + "]}";
            assertThat(read(same)).as("resource first: %s", resourceFirst).singleElement()
                    .satisfies(op -> assertThat(op.attempts()).hasSize(2));
        }
    }

    private static String resourceSpans(String resource, String span, boolean resourceFirst) {
        String spans = "\"scopeSpans\":[{\"spans\":[" + span + "]}]";
        String res = "\"resource\":" + resource;
        return "{" + (resourceFirst ? res + "," + spans : spans + "," + res) + "}";
    }

    @Test
    void aMissingResendLeavesAGapInTheAttemptNumbers() throws Exception {
        Operation op = read(export(
                span("1111aaaa2222bb01", 0, withStatus(503, get("https://a.example/x"))),
                span("1111aaaa2222bb03", 900, concat(withStatus(200, get("https://a.example/x")),
                        integer("http.request.resend_count", 2))))).get(0);
        assertThat(op.attempts()).extracting(Attempt::attemptId).containsExactly(1, 3);
    }

    @Test
    void spansAreOrderedByStartTimeNotFilePosition() throws Exception {
        Operation op = read(export(
                span("1111aaaa2222bb02", 100, concat(withStatus(200, get("https://a.example/x")),
                        integer("http.request.resend_count", 1))),
                span("1111aaaa2222bb01", 0, withStatus(503, get("https://a.example/x"))))).get(0);
        assertThat(op.id()).isEqualTo(T + "/1111aaaa2222bb01");
        assertThat(op.attempts()).extracting(Attempt::spanId).containsExactly("1111aaaa2222bb01", "1111aaaa2222bb02");
        assertThat(op.location().pointer()).endsWith("/spans/1");
    }

    @Test
    void redirectsAndTheFirstAuthChallengeAreFoldedNotCountedAsRetries() throws Exception {
        Operation op = read(export(
                span("1111aaaa2222bb01", 0, withStatus(503, get("https://a.example/old"))),
                span("1111aaaa2222bb02", 100, concat(withStatus(301, get("https://a.example/old")),
                        integer("http.request.resend_count", 1))),
                span("1111aaaa2222bb03", 120, concat(withStatus(401, get("https://a.example/new")),
                        integer("http.request.resend_count", 2))),
                span("1111aaaa2222bb04", 140, concat(withStatus(401, get("https://a.example/new")),
                        integer("http.request.resend_count", 3))),
                span("1111aaaa2222bb05", 300, concat(withStatus(200, get("https://a.example/new")),
                        integer("http.request.resend_count", 4))))).get(0);

        assertThat(op.attempts()).extracting(Attempt::attemptId).containsExactly(1, 2, 3);
        Attempt second = op.attempts().get(1);
        assertThat(second.spanId()).isEqualTo("1111aaaa2222bb02");
        assertThat(second.startMillis()).isEqualTo(BASE_MS + 100);
        assertThat(second.endMillis()).isEqualTo(BASE_MS + 150);
        assertThat(second.status()).isEqualTo(401);
        assertThat(op.attempts().get(2).status()).isEqualTo(200);
    }

    @Test
    void a304IsAFinalResponseNotARedirect() throws Exception {
        Operation op = read(export(
                span("1111aaaa2222bb01", 0, withStatus(304, get("https://a.example/x"))),
                span("1111aaaa2222bb02", 100, concat(withStatus(200, get("https://a.example/x")),
                        integer("http.request.resend_count", 1))))).get(0);
        assertThat(op.attempts()).extracting(Attempt::status).containsExactly(304, 200);
    }

    @Test
    void toolSpansGroupByCallIdElseByParentAndToolNameAndNumberByStartTime() throws Exception {
        String[] search = {str("gen_ai.operation.name", "execute_tool"), str("gen_ai.tool.name", "search")};
        List<Operation> ops = read(export(
                spanUnder("1111aaaa2222bb02", "2222aaaa2222bb01", 200, concat(search, str("gen_ai.tool.call.id", "call_1"))),
                spanUnder("1111aaaa2222bb01", "2222aaaa2222bb00", 0, concat(search, str("gen_ai.tool.call.id", "call_1"))),
                spanUnder("1111aaaa2222bb03", "2222aaaa2222bb00", 300, search),
                spanUnder("1111aaaa2222bb04", "2222aaaa2222bb00", 400, concat(search, str("error.type", "TimeoutError"))),
                spanUnder("1111aaaa2222bb05", "2222aaaa2222bb09", 500, search)));

        assertThat(ops).extracting(Operation::id).containsExactly(
                T + "/call_1", T + "/1111aaaa2222bb03", T + "/1111aaaa2222bb05");
        assertThat(ops.get(0).attempts()).extracting(Attempt::spanId).containsExactly("1111aaaa2222bb01", "1111aaaa2222bb02");
        assertThat(ops.get(0).attempts()).extracting(Attempt::attemptId).containsExactly(1, 2);
        assertThat(ops.get(1).attempts()).extracting(Attempt::outcome).containsExactly(Outcome.SUCCESS, Outcome.TIMEOUT);
        assertThat(ops).extracting(Operation::tool).containsOnly("search");
    }

    @Test
    void explicitAttributesWinAndMarkTheFieldsCarried() throws Exception {
        String[] first = {str("retry_audit.operation_id", "charge-1"), integer("retry_audit.attempt_id", 1),
            str("retry_audit.idempotency_key", "key-a"), str("retry_audit.commit_state", "unknown"),
            str("retry_audit.commit_state_source", "runner"), str("retry_audit.retry_reason", ""),
            str("retry_audit.request_hash", "h1"), str("retry_audit.effect", "write"), str("retry_audit.run_id", "run-9"),
            str("gen_ai.tool.name", "charge_cart"), str("error.type", "timeout")};
        String[] second = {str("retry_audit.operation_id", "charge-1"), integer("attempt_id", 2),
            str("idempotency_key", "key-a"), str("commit_state", "committed"), str("retry_reason", "timeout"),
            str("parent_run_id", "run-9"), integer("http.request.resend_count", 7)};
        List<Operation> ops = read(export(
                spanUnder("1111aaaa2222bb02", "", 9000, second),
                spanUnder("1111aaaa2222bb01", "", 0, first)));

        Operation op = ops.get(0);
        assertThat(op.id()).isEqualTo("charge-1");
        assertThat(op.tool()).isEqualTo("charge_cart");
        assertThat(op.effect()).isEqualTo(Effect.WRITE);
        assertThat(op.runId()).isEqualTo("run-9");
        assertThat(op.idempotencyKey()).isEqualTo("key-a");
        assertThat(op.carried()).containsExactlyInAnyOrder(Field.SPAN_ID, Field.IDEMPOTENCY_KEY, Field.COMMIT_STATE,
                Field.RETRY_REASON, Field.REQUEST_HASH);
        Attempt a1 = op.attempts().get(0);
        assertThat(a1.attemptId()).isEqualTo(1);
        assertThat(a1.commitState()).isEqualTo(CommitState.UNKNOWN);
        assertThat(a1.commitStateSource()).isEqualTo(CommitStateSource.RUNNER);
        assertThat(a1.retryReason()).isEmpty();
        assertThat(a1.requestHash()).isEqualTo("h1");
        assertThat(a1.outcome()).isEqualTo(Outcome.TIMEOUT);
        Attempt a2 = op.attempts().get(1);
        assertThat(a2.attemptId()).isEqualTo(2);
        assertThat(a2.commitState()).isEqualTo(CommitState.COMMITTED);
        assertThat(a2.retryReason()).isEqualTo("timeout");
        assertThat(a2.idempotencyKey()).isEqualTo("key-a");
    }

    @Test
    void theExplicitKeyWinsOverItsBareNameAndTheHeaderWhicheverComesFirst() throws Exception {
        Attempt a = read(export(span("1111aaaa2222bb01", 0, concat(get("https://a.example/x"),
                str("idempotency_key", "bare"), str("http.request.header.idempotency-key", "header"),
                str("retry_audit.idempotency_key", "explicit"))))).get(0).attempts().get(0);
        assertThat(a.idempotencyKey()).isEqualTo("explicit");
    }

    @Test
    void recordedRequestHeadersMakeAMissingIdempotencyKeyMeaningful() throws Exception {
        List<Operation> ops = read(export(
                span("1111aaaa2222bb01", 0, concat(get("https://a.example/x"),
                        "{\"key\":\"http.request.header.Content-Type\",\"value\":{\"arrayValue\":{\"values\":[{\"stringValue\":\"application/json\"}]}}}")),
                span("1111aaaa2222bb02", 0, concat(get("https://a.example/y"),
                        "{\"key\":\"HTTP.REQUEST.HEADER.IDEMPOTENCY-KEY\",\"value\":{\"arrayValue\":{\"values\":[{\"stringValue\":\"k-9\"},{\"stringValue\":\"k-10\"}]}}}"))));
        assertThat(ops.get(0).carried()).contains(Field.IDEMPOTENCY_KEY);
        assertThat(ops.get(0).idempotencyKey()).isNull();
        assertThat(ops.get(1).idempotencyKey()).isEqualTo("k-9");
    }

    @Test
    void theNewSemanticConventionNameWinsOverTheLegacyOne() throws Exception {
        Operation op = read(export(span("1111aaaa2222bb01", 0, str("http.method", "GET"),
                str("http.request.method", "_OTHER"), str("http.request.method_original", "PURGE"),
                str("http.url", "https://old.example/"), str("url.full", "https://user:pw@new.example/x?q=1"),
                integer("http.status_code", 500), integer("http.response.status_code", 200),
                integer("http.retry_count", 3), integer("http.resend_count", 2)))).get(0);
        assertThat(op.method()).isEqualTo("PURGE");
        assertThat(op.target()).isEqualTo("https://user:pw@new.example/x?q=1");
        assertThat(op.tool()).isEqualTo("PURGE new.example");
        assertThat(op.attempts().get(0).status()).isEqualTo(200);
        assertThat(op.attempts().get(0).attemptId()).isEqualTo(3);
    }

    @Test
    void withoutAUrlTheToolNameUsesServerAddress() throws Exception {
        Operation op = read(export(span("1111aaaa2222bb01", 0, str("http.request.method", "DELETE"),
                str("server.address", "api.example")))).get(0);
        assertThat(op.tool()).isEqualTo("DELETE api.example");
        assertThat(op.target()).isNull();
    }

    @Test
    void outcomesComeFromErrorTypeThenStatusThenSpanStatus() throws Exception {
        String ok = "{\"traceId\":\"" + T + "\",\"spanId\":\"1111aaaa2222bb09\",\"status\":{\"code\":1},"
                + "\"attributes\":[" + str("http.request.method", "GET") + "]}";
        String failed = "{\"traceId\":\"" + T + "\",\"spanId\":\"1111aaaa2222bb0a\",\"status\":{\"code\":2,\"message\":\"x\"},"
                + "\"attributes\":[" + str("http.request.method", "GET") + "]}";
        List<Operation> ops = read(export(
                span("1111aaaa2222bb01", 0, concat(get("https://a.example/1"), str("error.type", "timeout"))),
                span("1111aaaa2222bb02", 1, concat(get("https://a.example/2"), str("error.type", "ConnectionRefusedError"))),
                span("1111aaaa2222bb03", 2, concat(get("https://a.example/3"), str("error.type", "System.Threading.Tasks.TaskCanceledException"))),
                span("1111aaaa2222bb04", 3, concat(get("https://a.example/4"), str("error.type", "_OTHER"))),
                span("1111aaaa2222bb05", 4, withStatus(429, get("https://a.example/5"))),
                span("1111aaaa2222bb06", 5, withStatus(302, get("https://a.example/6"))),
                span("1111aaaa2222bb07", 6, get("https://a.example/7")),
                span("1111aaaa2222bb08", 7, withStatus(0, get("https://a.example/8", str("error.type", "ECONNREFUSED")))),
                failed, ok));
        // A request that got no status and ended in an error has an outcome nobody knows: a cancellation is the
        // client giving up waiting (a timeout), any other error may have come after the request was written.
        assertThat(ops).extracting(op -> op.attempts().get(0).outcome()).containsExactly(
                Outcome.TIMEOUT, Outcome.CONNECTION_ERROR, Outcome.TIMEOUT, Outcome.CONNECTION_ERROR, Outcome.ERROR,
                Outcome.SUCCESS, Outcome.TIMEOUT, Outcome.CONNECTION_ERROR, Outcome.CONNECTION_ERROR, Outcome.SUCCESS);
        assertThat(ops.get(7).attempts().get(0).status()).isNull();
    }

    @Test
    void timesKeepMillisecondsExactlyAndZeroMeansAbsent() throws Exception {
        String s = "{\"traceId\":\"" + T + "\",\"spanId\":\"1111aaaa2222bb01\",\"startTimeUnixNano\":1788789720123999999,"
                + "\"endTimeUnixNano\":\"0\",\"attributes\":[" + str("http.request.method", "GET") + "]}";
        Attempt a = read(export(s)).get(0).attempts().get(0);
        assertThat(a.startMillis()).isEqualTo(BASE_MS + 123);
        assertThat(a.hasEnd()).isFalse();
        assertThat(a.outcome()).as("a span that did not end is not one the client stopped waiting for").isNull();
        String max = "{\"traceId\":\"" + T + "\",\"spanId\":\"1111aaaa2222bb01\",\"startTimeUnixNano\":18446744073709551615,"
                + "\"attributes\":[" + str("http.request.method", "GET") + "]}";
        assertThat(read(export(max)).get(0).attempts().get(0).startMillis()).isEqualTo(18_446_744_073_709L);
    }

    @Test
    void attributeValuesMayComeBeforeTheirKeysAndUnknownMembersAreIgnored() throws Exception {
        String reversed = "{\"value\":{\"intValue\":503,\"x-extension\":true},\"key\":\"http.response.status_code\"}";
        String numeric = "{\"key\":\"http.response.header.retry-after\",\"value\":{\"intValue\":\"5\"}}";
        Attempt a = read(export(span("1111aaaa2222bb01", 0, concat(get("https://a.example/x"), reversed, numeric,
                "{\"key\":\"unused\",\"value\":{\"kvlistValue\":{\"values\":[]}}}",
                "{\"key\":\"unused.too\",\"value\":\"not even an AnyValue\"}",
                "{\"key\":\"error.type\",\"value\":null}",
                "{\"key\":\"http.response.header.date\",\"value\":{\"stringValue\":null}}")))).get(0).attempts().get(0);
        assertThat(a.status()).isEqualTo(503);
        assertThat(a.outcome()).isEqualTo(Outcome.ERROR);
        assertThat(a.responseDate()).isNull();
        assertThat(a.retryAfter()).isEqualTo("5");
    }

    @Test
    void parentLinksReachTheAttemptOfTheEnclosingOperation() throws Exception {
        String[] tool = {str("gen_ai.operation.name", "execute_tool"), str("gen_ai.tool.name", "fetch"),
            str("gen_ai.tool.call.id", "call_3")};
        List<Operation> ops = read(export(
                spanUnder("2222aaaa2222bb01", "", 0, tool),
                spanUnder("2222aaaa2222bb02", "", 1000, tool),
                spanUnder("1111aaaa2222bb01", "2222aaaa2222bb02", 1001, withStatus(503, get("https://a.example/x")))));
        assertThat(new ParentRef(ops.get(1).parentOperation(), ops.get(1).parentAttempt())).isEqualTo(new ParentRef(T + "/call_3", 2));
        assertThat(ops.get(0).parentOperation()).isNull();
    }

    @Test
    void operationsComeOutInTheOrderOfTheirFirstSpan() throws Exception {
        List<Operation> ops = read(export(
                span("1111aaaa2222bb03", 500, get("https://a.example/late")),
                span("1111aaaa2222bb01", 0, get("https://a.example/early"))));
        assertThat(ops).extracting(Operation::target).containsExactly("https://a.example/late", "https://a.example/early");
        Set<String> ids = ops.stream().map(Operation::id).collect(Collectors.toSet());
        assertThat(ids).hasSize(2);
    }
}

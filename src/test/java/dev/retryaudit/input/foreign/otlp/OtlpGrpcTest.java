package dev.retryaudit.input.foreign.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.retryaudit.input.InputSet;
import dev.retryaudit.model.Attempt;
import dev.retryaudit.model.ErrorClass;
import dev.retryaudit.model.Field;
import dev.retryaudit.model.GrpcStatus;
import dev.retryaudit.model.InputFormat;
import dev.retryaudit.model.InputNote;
import dev.retryaudit.model.InputSummary;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.Operation;
import dev.retryaudit.model.Outcome;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How gRPC spans become attempts: names, status sources, send times, grouping into calls and the notes on the way. */
class OtlpGrpcTest {
    private static final String TRACE = "0af7651916cd43dd8448eb211c80319c";
    private static final long T0 = 1_788_789_720_000L;

    private record Read(List<Operation> ops, List<String> notes) {
    }

    private static Read read(String... spans) throws Exception {
        String json = "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[" + String.join(",", spans) + "]}]}]}";
        List<Operation> ops = new ArrayList<>();
        List<InputSummary> s = new InputSet(InputFormat.OTLP, Limits.DEFAULTS).readAll(
                List.of(new InputSet.Source(InputSet.STDIN, null)),
                new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), ops::add);
        return new Read(ops, s.get(0).notes().stream().map(InputNote::message).toList());
    }

    private static String span(String id, String parent, String name, int kind, long start, long end, String status,
            String attributes, String events) {
        return "{\"traceId\":\"" + TRACE + "\",\"spanId\":\"" + id + "\",\"parentSpanId\":\"" + parent + "\",\"name\":\""
                + name + "\",\"kind\":" + kind + ",\"startTimeUnixNano\":\"" + (T0 + start) + "000000\","
                + "\"endTimeUnixNano\":\"" + (T0 + end) + "000000\",\"status\":" + status + ",\"attributes\":["
                + attributes + "],\"events\":[" + events + "]}";
    }

    private static String attempt(int previous) {
        return "{\"key\":\"previous-rpc-attempts\",\"value\":{\"intValue\":\"" + previous + "\"}}";
    }

    private static String error(String message) {
        return "{\"code\":2,\"message\":\"" + message + "\"}";
    }

    private static String str(String key, String value) {
        return "{\"key\":\"" + key + "\",\"value\":{\"stringValue\":\"" + value + "\"}}";
    }

    @Test
    void grpcCppSpanNamesKeepTheSlashAndAttemptsWithoutTheirCallSpanAreOneCall() throws Exception {
        Read r = read(
                span("00000000000000a2", "00000000000000a1", "Attempt.grpc.testing.Echo/Echo", 1, 0, 10,
                        error("UNAVAILABLE"), attempt(0), ""),
                span("00000000000000a3", "00000000000000a1", "Attempt.grpc.testing.Echo/Echo", 1, 300, 310, "{\"code\":1}",
                        attempt(1), ""));
        assertThat(r.ops()).singleElement().satisfies(op -> {
            assertThat(op.tool()).isEqualTo("grpc.testing.Echo/Echo");
            assertThat(op.target()).isEqualTo("grpc.testing.Echo/Echo");
            assertThat(op.method()).isNull();
            assertThat(op.groupedBy()).isEqualTo("previous-rpc-attempts");
            assertThat(op.attempts()).extracting(Attempt::grpcStatus).containsExactly(GrpcStatus.UNAVAILABLE, GrpcStatus.OK);
            assertThat(op.attempts().get(0).errorClass()).isEqualTo(ErrorClass.UNAVAILABLE);
        });
    }

    @Test
    void attemptsAreOrderedByPreviousAttemptsAndStartWhenTheirMessageWentOut() throws Exception {
        String sent = "{\"timeUnixNano\":\"" + (T0 + 250) + "000000\",\"name\":\"Outbound message\",\"attributes\":[]}";
        Read r = read(
                span("00000000000000b3", "00000000000000b1", "Attempt.shop.v1.Cart.AddItem", 1, 40, 300, "{\"code\":1}",
                        attempt(1), "{\"name\":\"Delayed LB pick complete\",\"timeUnixNano\":\"" + (T0 + 41) + "000000\"},"
                                + sent),
                span("00000000000000b2", "00000000000000b1", "Attempt.shop.v1.Cart.AddItem", 1, 0, 40,
                        error("RESOURCE_EXHAUSTED: quota"), attempt(0), ""),
                span("00000000000000b1", "", "Sent.shop.v1.Cart.AddItem", 1, 0, 301, "{\"code\":1}", "", ""));
        Operation op = r.ops().get(0);
        assertThat(op.id()).isEqualTo(TRACE + "/00000000000000b2");
        assertThat(op.attempts()).extracting(Attempt::spanId).containsExactly("00000000000000b2", "00000000000000b3");
        assertThat(op.attempts().get(1).startMillis()).isEqualTo(T0 + 250);
        assertThat(op.attempts().get(0).startMillis()).as("no send event: the span's start").isEqualTo(T0);
        assertThat(op.attempts().get(0).outcome()).isEqualTo(Outcome.ERROR);
        assertThat(r.notes()).isEmpty();
    }

    @Test
    void theCurrentConventionsNameTheStatusAndAnUnknownCodeIsNotedAndReadFromTheSpanStatus() throws Exception {
        String conventions = str("rpc.system.name", "grpc") + "," + str("rpc.method", "shop.v1.Cart/AddItem");
        Read r = read(
                span("00000000000000c1", "00000000000000c0", "shop.v1.Cart/AddItem", 3, 0, 10, "{\"code\":2}",
                        conventions + "," + str("rpc.response.status_code", "CANCELLED"), ""),
                span("00000000000000c2", "00000000000000c9", "shop.v1.Cart/AddItem", 3, 0, 10, error("INTERNAL: boom"),
                        conventions + ",{\"key\":\"rpc.grpc.status_code\",\"value\":{\"intValue\":\"42\"}}", ""));
        assertThat(r.ops()).hasSize(2);
        assertThat(r.ops().get(0).attempts().get(0).grpcStatus()).isEqualTo(GrpcStatus.CANCELLED);
        assertThat(r.ops().get(0).attempts().get(0).outcome()).isEqualTo(Outcome.CANCELLED);
        assertThat(r.ops().get(1).attempts().get(0).grpcStatus()).isEqualTo(GrpcStatus.INTERNAL);
        assertThat(r.notes()).contains("span 00000000000000c2 has gRPC status \"42\", not one of the 17 codes; read from "
                + "the span status instead");
    }

    @Test
    void callsOfOtherMethodsOrAfterASuccessOrARejectionAreOperationsOfTheirOwn() throws Exception {
        String agent = str("rpc.system", "grpc") + "," + str("rpc.service", "shop.v1.Cart");
        Read r = read(
                span("00000000000000d1", "00000000000000d0", "x", 3, 0, 10, error("UNAVAILABLE"),
                        agent + "," + str("rpc.method", "AddItem") + ",{\"key\":\"rpc.grpc.status_code\",\"value\":"
                                + "{\"intValue\":\"14\"}}", ""),
                span("00000000000000d2", "00000000000000d0", "x", 3, 100, 110, "{\"code\":0}",
                        agent + "," + str("rpc.method", "RemoveItem"), ""),
                span("00000000000000d3", "00000000000000d0", "x", 3, 200, 210, "{\"code\":0}",
                        agent + "," + str("rpc.method", "RemoveItem"), ""),
                span("00000000000000d4", "00000000000000d0", "x", 3, 300, 310, error("INVALID_ARGUMENT: no"),
                        agent + "," + str("rpc.method", "Checkout"), ""),
                span("00000000000000d5", "00000000000000d0", "x", 3, 400, 410, "{\"code\":0}",
                        agent + "," + str("rpc.method", "Checkout"), ""));
        assertThat(r.ops()).extracting(Operation::tool).containsExactly("shop.v1.Cart/AddItem", "shop.v1.Cart/RemoveItem",
                "shop.v1.Cart/RemoveItem", "shop.v1.Cart/Checkout", "shop.v1.Cart/Checkout");
        assertThat(r.ops()).allSatisfy(op -> assertThat(op.attempts()).hasSize(1));
        assertThat(r.ops().get(3).attempts().get(0).grpcStatus()).isEqualTo(GrpcStatus.INVALID_ARGUMENT);
        assertThat(r.notes()).singleElement().asString().startsWith("the export cannot show the retries of 5 gRPC calls");
    }

    @Test
    void aKeyInTheCallsMetadataIsItsIdempotencyKeyAndMetadataWithoutOneShowsNoneWasSent() throws Exception {
        String agent = str("rpc.system", "grpc") + "," + str("rpc.service", "shop.v1.Orders") + ","
                + str("rpc.method", "CreateOrder");
        String array = "{\"key\":\"%s\",\"value\":{\"arrayValue\":{\"values\":[{\"stringValue\":\"%s\"}]}}}";
        Read r = read(
                // a keyed call: the client span records the key it sent
                span("00000000000000f1", "00000000000000f0", "shop.v1.Orders/CreateOrder", 3, 0, 10, "{\"code\":0}",
                        agent + "," + array.formatted("rpc.grpc.request.metadata.idempotency-key", "order-1"), ""),
                // a call whose client span records no metadata, and whose server span records some but no key
                span("00000000000000f2", "00000000000000e0", "shop.v1.Orders/CreateOrder", 3, 0, 10, "{\"code\":0}", agent, ""),
                span("00000000000000f3", "00000000000000f2", "shop.v1.Orders/CreateOrder", 2, 1, 9, "{\"code\":0}",
                        agent + "," + array.formatted("rpc.grpc.request.metadata.user-agent", "grpc-java-netty/1.85.1"), ""),
                // a call that records no metadata anywhere
                span("00000000000000f4", "00000000000000d0", "shop.v1.Orders/CreateOrder", 3, 0, 10, "{\"code\":0}", agent, ""));
        assertThat(r.ops()).hasSize(3);
        assertThat(r.ops().get(0).idempotencyKey()).isEqualTo("order-1");
        assertThat(r.ops().get(1).idempotencyKey()).isNull();
        assertThat(r.ops().get(1).carried()).as("the server saw the call's metadata: no key was sent")
                .contains(Field.IDEMPOTENCY_KEY);
        assertThat(r.ops().get(2).carried()).as("nothing shows whether a key was sent").doesNotContain(Field.IDEMPOTENCY_KEY);
    }

    @Test
    void anUnfinishedAttemptHasNoStatusAndNoOutcome() throws Exception {
        Read r = read(span("00000000000000e2", "00000000000000e1", "Attempt.shop.v1.Cart.AddItem", 1, 0, 0, "{}",
                attempt(0), ""));
        Attempt a = r.ops().get(0).attempts().get(0);
        assertThat(a.grpcStatus()).isNull();
        assertThat(a.outcome()).isNull();
        assertThat(r.ops().get(0).attempts()).hasSize(1);
    }
}

package dev.retryaudit.input.foreign.otlp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.retryaudit.api.AuditInput;
import dev.retryaudit.api.AuditSettings;
import dev.retryaudit.api.RetryAudit;
import dev.retryaudit.api.RetryAuditException;
import dev.retryaudit.model.Limits;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Spans decoded from protobuf are rejected with the path and message of the same spans in OTLP/JSON,
 * at the message's number (line N, column 1) instead of the JSON's line and column.
 */
class OtlpProtobufErrorsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ObjectNode span(JsonNode doc, int i) {
        return (ObjectNode) doc.path("resourceSpans").get(0).path("scopeSpans").get(0).path("spans").get(i);
    }

    private static ObjectNode attribute(JsonNode doc, int span, String key) {
        for (JsonNode a : span(doc, span).path("attributes")) {
            if (a.path("key").asText().equals(key)) {
                return (ObjectNode) a;
            }
        }
        throw new AssertionError("no attribute " + key);
    }

    /** The diagnostic without its place: the path and the message. */
    private static String rejection(RetryAudit audit, byte[] bytes) {
        RetryAuditException e = catchThrowableOfType(() -> audit.audit(AuditInput.stream(new ByteArrayInputStream(bytes),
                "t")), RetryAuditException.class);
        assertThat(e).isNotNull();
        String m = e.getMessage();
        return m.substring(m.indexOf(" error: "));
    }

    private static void sameRejection(Limits limits, Consumer<JsonNode> change) throws Exception {
        JsonNode doc = JSON.readTree(Path.of("examples/checkout-otlp.json").toFile());
        change.accept(doc);
        RetryAudit audit = RetryAudit.of(AuditSettings.builder().limits(limits).build());
        String json = rejection(audit, JSON.writeValueAsBytes(doc));
        byte[] framed = OtlpProtoFixtures.framed(List.of(OtlpProtoFixtures.export(doc)));
        RetryAuditException e = catchThrowableOfType(() -> audit.audit(AuditInput.stream(new ByteArrayInputStream(framed),
                "t")), RetryAuditException.class);
        assertThat(e.getMessage()).startsWith("t:1:1: error: ");
        assertThat(rejection(audit, framed)).isEqualTo(json).contains("$.resourceSpans[0].scopeSpans[0].spans[");
    }

    @Test
    void anAttributeOfTheWrongTypeIsRejectedAtItsPath() throws Exception {
        sameRejection(Limits.DEFAULTS, d -> attribute(d, 2, "http.response.status_code").set("value",
                JSON.createObjectNode().put("boolValue", true)));
    }

    @Test
    void anElementOfAnArrayValueIsRejectedAtItsPath() throws Exception {
        sameRejection(Limits.DEFAULTS, d -> {
            ArrayNode values = ((ObjectNode) attribute(d, 1, "http.request.header.idempotency-key").path("value")
                    .path("arrayValue")).putArray("values");
            values.addObject().put("intValue", "7");
        });
    }

    @Test
    void aSpanKindOrStatusCodeOutOfRangeIsRejected() throws Exception {
        sameRejection(Limits.DEFAULTS, d -> span(d, 1).put("kind", 9));
        sameRejection(Limits.DEFAULTS, d -> ((ObjectNode) span(d, 1).path("status")).put("code", 5));
    }

    @Test
    void aStringOverTheLimitIsRejectedAtItsPath() throws Exception {
        Limits small = new Limits(1L << 30, 5_000_000, 10_000, 40, 64);
        sameRejection(small, d -> attribute(d, 1, "url.full").set("value", JSON.createObjectNode()
                .put("stringValue", "https://pay.example/" + "x".repeat(60))));
        sameRejection(small, d -> span(d, 1).put("name", "POST " + "y".repeat(60)));
    }
}

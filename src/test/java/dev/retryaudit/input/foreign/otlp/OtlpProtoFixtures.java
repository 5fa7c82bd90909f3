package dev.retryaudit.input.foreign.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

/**
 * Test fixtures in OTLP protobuf made from the OTLP/JSON ones: each export of a JSON file (a document,
 * or each line of JSON Lines; a Jaeger query's {@code result} unwrapped) as the
 * {@code ExportTraceServiceRequest} it encodes, and the file exporter's framing of them.
 */
public final class OtlpProtoFixtures {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> KINDS = List.of("SPAN_KIND_UNSPECIFIED", "SPAN_KIND_INTERNAL", "SPAN_KIND_SERVER",
            "SPAN_KIND_CLIENT", "SPAN_KIND_PRODUCER", "SPAN_KIND_CONSUMER");
    private static final List<String> CODES = List.of("STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR");

    private OtlpProtoFixtures() {
    }

    /** Every OTLP/JSON file of the tests and examples: each JSON file or JSON Lines that names resourceSpans. */
    public static List<Path> jsonFiles() throws IOException {
        List<Path> out = new ArrayList<>();
        for (Path root : List.of(Path.of("src/test/resources"), Path.of("examples"))) {
            try (java.util.stream.Stream<Path> files = Files.walk(root)) {
                files.filter(Files::isRegularFile)
                        .filter(p -> p.toString().endsWith(".json") || p.toString().endsWith(".jsonl"))
                        .sorted()
                        .forEach(out::add);
            }
        }
        out.removeIf(p -> {
            try {
                String head = Files.readString(p, StandardCharsets.UTF_8);
                return !(head.contains("\"resourceSpans\"") || head.contains("\"resource_spans\""));
            } catch (IOException e) {
                return true;
            }
        });
        return out;
    }

    /** The exports of an OTLP/JSON file, or an exception when it holds something else (a log, not JSON). */
    public static List<ExportTraceServiceRequest> exports(Path file) throws IOException {
        List<ExportTraceServiceRequest> out = new ArrayList<>();
        String text = Files.readString(file, StandardCharsets.UTF_8);
        List<JsonNode> docs = new ArrayList<>();
        try {
            docs.add(JSON.readTree(text));
        } catch (IOException e) {
            for (String line : text.split("\n")) {
                if (!line.isBlank()) {
                    docs.add(JSON.readTree(line));
                }
            }
        }
        for (JsonNode d : docs) {
            out.add(export(d.has("result") ? d.get("result") : d));
        }
        return out;
    }

    /** The export of one OTLP/JSON export object. */
    public static ExportTraceServiceRequest export(JsonNode d) {
        ExportTraceServiceRequest.Builder b = ExportTraceServiceRequest.newBuilder();
        for (JsonNode rs : field(d, "resourceSpans")) {
            b.addResourceSpans(resourceSpans(rs));
        }
        return b.build();
    }

    /** The file exporter's framing of {@code exports}: each one's length, 4 bytes big-endian, then the message. */
    public static byte[] framed(List<ExportTraceServiceRequest> exports) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ExportTraceServiceRequest e : exports) {
            byte[] m = e.toByteArray();
            out.write(m.length >>> 24);
            out.write(m.length >>> 16);
            out.write(m.length >>> 8);
            out.write(m.length);
            out.writeBytes(m);
        }
        return out.toByteArray();
    }

    private static Iterable<JsonNode> field(JsonNode n, String camel) {
        JsonNode v = value(n, camel);
        return v == null || v.isNull() ? List.of() : v;
    }

    private static JsonNode value(JsonNode n, String camel) {
        if (n == null) {
            return null;
        }
        if (n.has(camel)) {
            return n.get(camel);
        }
        String snake = camel.replaceAll("([A-Z])", "_$1").toLowerCase(java.util.Locale.ROOT);
        return n.get(snake);
    }

    private static boolean present(JsonNode n, String camel) {
        JsonNode v = value(n, camel);
        return v != null && !v.isNull();
    }

    private static ResourceSpans resourceSpans(JsonNode rs) {
        ResourceSpans.Builder b = ResourceSpans.newBuilder();
        JsonNode resource = value(rs, "resource");
        if (resource != null && !resource.isNull()) {
            Resource.Builder r = Resource.newBuilder();
            for (JsonNode kv : field(resource, "attributes")) {
                r.addAttributes(keyValue(kv));
            }
            b.setResource(r);
        }
        List<JsonNode> scopes = new ArrayList<>();
        field(rs, "scopeSpans").forEach(scopes::add);
        field(rs, "instrumentationLibrarySpans").forEach(scopes::add);
        for (JsonNode ss : scopes) {
            ScopeSpans.Builder s = ScopeSpans.newBuilder();
            JsonNode scope = value(ss, "scope");
            scope = scope == null ? value(ss, "instrumentationLibrary") : scope;
            if (scope != null && !scope.isNull()) {
                s.setScope(InstrumentationScope.newBuilder().setName(scope.path("name").asText("")));
            }
            for (JsonNode span : field(ss, "spans")) {
                s.addSpans(span(span));
            }
            b.addScopeSpans(s);
        }
        return b.build();
    }

    private static Span span(JsonNode n) {
        Span.Builder b = Span.newBuilder();
        b.setTraceId(id(value(n, "traceId")));
        b.setSpanId(id(value(n, "spanId")));
        b.setParentSpanId(id(value(n, "parentSpanId")));
        JsonNode name = value(n, "name");
        b.setName(name == null || name.isNull() ? "" : name.asText());
        b.setKindValue(enumValue(value(n, "kind"), KINDS));
        b.setStartTimeUnixNano(uint64(value(n, "startTimeUnixNano")));
        b.setEndTimeUnixNano(uint64(value(n, "endTimeUnixNano")));
        for (JsonNode kv : field(n, "attributes")) {
            b.addAttributes(keyValue(kv));
        }
        for (JsonNode e : field(n, "events")) {
            Span.Event.Builder ev = Span.Event.newBuilder().setName(e.path("name").asText(""))
                    .setTimeUnixNano(uint64(value(e, "timeUnixNano")));
            for (JsonNode kv : field(e, "attributes")) {
                ev.addAttributes(keyValue(kv));
            }
            b.addEvents(ev);
        }
        JsonNode status = value(n, "status");
        if (status != null && !status.isNull()) {
            Status.Builder s = Status.newBuilder().setCodeValue(enumValue(value(status, "code"), CODES));
            if (status.hasNonNull("message")) {
                s.setMessage(status.get("message").asText());
            }
            b.setStatus(s);
        }
        return b.build();
    }

    private static ByteString id(JsonNode n) {
        return n == null || n.isNull() || n.asText().isEmpty() ? ByteString.EMPTY
                : ByteString.copyFrom(HexFormat.of().parseHex(n.asText()));
    }

    private static int enumValue(JsonNode n, List<String> names) {
        if (n == null || n.isNull()) {
            return 0;
        }
        return n.isTextual() ? names.indexOf(n.asText()) : n.asInt();
    }

    private static long uint64(JsonNode n) {
        return n == null || n.isNull() ? 0 : Long.parseUnsignedLong(n.asText());
    }

    private static KeyValue keyValue(JsonNode kv) {
        KeyValue.Builder b = KeyValue.newBuilder().setKey(kv.path("key").asText(""));
        JsonNode v = kv.get("value");
        if (v != null && !v.isNull()) {
            b.setValue(anyValue(v));
        }
        return b.build();
    }

    private static AnyValue anyValue(JsonNode v) {
        AnyValue.Builder b = AnyValue.newBuilder();
        if (present(v, "stringValue")) {
            b.setStringValue(value(v, "stringValue").asText());
        } else if (present(v, "intValue")) {
            b.setIntValue(Long.parseLong(value(v, "intValue").asText()));
        } else if (present(v, "boolValue")) {
            b.setBoolValue(value(v, "boolValue").asBoolean());
        } else if (present(v, "doubleValue")) {
            b.setDoubleValue(value(v, "doubleValue").asDouble());
        } else if (present(v, "arrayValue")) {
            ArrayValue.Builder a = ArrayValue.newBuilder();
            for (JsonNode e : field(value(v, "arrayValue"), "values")) {
                a.addValues(anyValue(e));
            }
            b.setArrayValue(a);
        } else if (present(v, "kvlistValue")) {
            KeyValueList.Builder l = KeyValueList.newBuilder();
            for (JsonNode e : field(value(v, "kvlistValue"), "values")) {
                l.addValues(keyValue(e));
            }
            b.setKvlistValue(l);
        } else if (present(v, "bytesValue")) {
            b.setBytesValue(ByteString.copyFrom(Base64.getDecoder().decode(value(v, "bytesValue").asText())));
        }
        return b.build();
    }
}

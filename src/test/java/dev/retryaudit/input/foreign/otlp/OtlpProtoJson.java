package dev.retryaudit.input.foreign.otlp;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HexFormat;
import java.util.List;

/**
 * The OTLP/JSON export that holds the spans of a protobuf export, for tests that regroup the spans of
 * a fixture: ids as lower-case hex, 64-bit integers as decimal strings, only the fields the reader reads.
 */
public final class OtlpProtoJson {
    private static final JsonFactory JSON = new JsonFactory();
    private static final HexFormat HEX = HexFormat.of();

    private OtlpProtoJson() {
    }

    /** The OTLP/JSON export (one line, UTF-8) that holds the spans of {@code export}. */
    public static byte[] json(ExportTraceServiceRequest export) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(256, export.getSerializedSize() * 2));
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeArrayFieldStart("resourceSpans");
            for (ResourceSpans rs : export.getResourceSpansList()) {
                resourceSpans(g, rs);
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory", e);
        }
        return out.toByteArray();
    }

    private static void resourceSpans(JsonGenerator g, ResourceSpans rs) throws IOException {
        g.writeStartObject();
        if (rs.hasResource()) {
            Resource r = rs.getResource();
            g.writeObjectFieldStart("resource");
            attributes(g, r.getAttributesList());
            g.writeEndObject();
        }
        g.writeArrayFieldStart("scopeSpans");
        for (ScopeSpans ss : rs.getScopeSpansList()) {
            g.writeStartObject();
            if (ss.hasScope()) {
                g.writeObjectFieldStart("scope");
                g.writeStringField("name", ss.getScope().getName());
                g.writeEndObject();
            }
            g.writeArrayFieldStart("spans");
            for (Span s : ss.getSpansList()) {
                span(g, s);
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static void span(JsonGenerator g, Span s) throws IOException {
        g.writeStartObject();
        id(g, "traceId", s.getTraceId());
        id(g, "spanId", s.getSpanId());
        id(g, "parentSpanId", s.getParentSpanId());
        g.writeStringField("name", s.getName());
        g.writeNumberField("kind", s.getKindValue());
        nanos(g, "startTimeUnixNano", s.getStartTimeUnixNano());
        nanos(g, "endTimeUnixNano", s.getEndTimeUnixNano());
        attributes(g, s.getAttributesList());
        if (s.getEventsCount() > 0) {
            g.writeArrayFieldStart("events");
            for (Span.Event e : s.getEventsList()) {
                g.writeStartObject();
                g.writeStringField("name", e.getName());
                nanos(g, "timeUnixNano", e.getTimeUnixNano());
                attributes(g, e.getAttributesList());
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        if (s.hasStatus()) {
            Status st = s.getStatus();
            g.writeObjectFieldStart("status");
            g.writeNumberField("code", st.getCodeValue());
            if (!st.getMessage().isEmpty()) {
                g.writeStringField("message", st.getMessage());
            }
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    /** An id as OTLP/JSON writes it: hex; absent when empty, as an unset field is. */
    private static void id(JsonGenerator g, String name, ByteString id) throws IOException {
        if (!id.isEmpty()) {
            g.writeStringField(name, HEX.formatHex(id.toByteArray()));
        }
    }

    private static void nanos(JsonGenerator g, String name, long nanos) throws IOException {
        if (nanos != 0) {
            g.writeStringField(name, Long.toUnsignedString(nanos));
        }
    }

    private static void attributes(JsonGenerator g, List<KeyValue> attributes) throws IOException {
        if (attributes.isEmpty()) {
            return;
        }
        g.writeArrayFieldStart("attributes");
        for (KeyValue kv : attributes) {
            keyValue(g, kv);
        }
        g.writeEndArray();
    }

    private static void keyValue(JsonGenerator g, KeyValue kv) throws IOException {
        g.writeStartObject();
        g.writeStringField("key", kv.getKey());
        if (kv.hasValue()) {
            g.writeFieldName("value");
            value(g, kv.getValue());
        }
        g.writeEndObject();
    }

    private static void value(JsonGenerator g, AnyValue v) throws IOException {
        g.writeStartObject();
        switch (v.getValueCase()) {
            case STRING_VALUE -> g.writeStringField("stringValue", v.getStringValue());
            case BOOL_VALUE -> g.writeBooleanField("boolValue", v.getBoolValue());
            case INT_VALUE -> g.writeStringField("intValue", Long.toString(v.getIntValue()));
            case DOUBLE_VALUE -> {
                double d = v.getDoubleValue();
                if (Double.isFinite(d)) {
                    g.writeNumberField("doubleValue", d);
                } else {
                    g.writeStringField("doubleValue", Double.isNaN(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity");
                }
            }
            case ARRAY_VALUE -> {
                g.writeObjectFieldStart("arrayValue");
                g.writeArrayFieldStart("values");
                for (AnyValue e : v.getArrayValue().getValuesList()) {
                    value(g, e);
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            case KVLIST_VALUE -> {
                g.writeObjectFieldStart("kvlistValue");
                g.writeArrayFieldStart("values");
                for (KeyValue e : v.getKvlistValue().getValuesList()) {
                    keyValue(g, e);
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            case BYTES_VALUE -> g.writeBinaryField("bytesValue", v.getBytesValue().toByteArray());
            // A profiles dictionary's index means nothing in a trace: an empty value, as OTLP/JSON skips it.
            case STRING_VALUE_STRINDEX, VALUE_NOT_SET -> {
            }
        }
        g.writeEndObject();
    }
}

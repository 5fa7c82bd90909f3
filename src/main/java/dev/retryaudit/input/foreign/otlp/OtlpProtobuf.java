package dev.retryaudit.input.foreign.otlp;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
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
 * OTLP in the protobuf encoding, as OTLP/HTTP bodies and the collector's file exporter
 * ({@code format: proto}) carry it: an {@code ExportTraceServiceRequest} (or {@code TracesData}, the
 * same message on the wire) parsed with the published definitions and rewritten as the OTLP/JSON
 * export that holds the same spans, so that one reader ({@link OtlpReader}) checks and links both
 * encodings alike. Ids become lower-case hex as the OTLP/JSON encoding writes them, 64-bit integers
 * decimal strings; only the fields the reader reads are written.
 */
public final class OtlpProtobuf {
    /** The bytes of the file exporter's frame header: each message's length, unsigned 32-bit big-endian. */
    public static final int FRAME_HEADER = 4;
    /** The tag of {@code resource_spans} (field 1, length-delimited): how a non-empty export begins. */
    private static final int RESOURCE_SPANS_TAG = 0x0A;
    private static final JsonFactory JSON = new JsonFactory();
    private static final HexFormat HEX = HexFormat.of();

    private OtlpProtobuf() {
    }

    /**
     * Whether the first {@code length} bytes of {@code head} begin as the file exporter's framed protobuf
     * does: a frame header whose length fits the 2 GiB a protobuf message may have, then a message that
     * starts with its {@code resource_spans} (or, an empty export, the next header). JSON never starts with
     * a zero byte, and a frame shorter than 16 MiB always does.
     */
    public static boolean isFramed(byte[] head, int offset, int length) {
        if (length < FRAME_HEADER || head[offset] < 0 || head[offset] >= 0x20 || jsonAfterBlanks(head, offset, length)) {
            return false;
        }
        long frame = frameLength(head, offset);
        if (length == FRAME_HEADER) {
            return frame == 0;
        }
        return frame == 0 ? head[offset + FRAME_HEADER] < 0x20 : head[offset + FRAME_HEADER] == RESOURCE_SPANS_TAG;
    }

    /**
     * Whether the bytes are white space and then an opening brace or bracket: JSON, though blank lines look
     * like a protobuf frame's header. No frame reads so: after its header and first tag, a byte of white space
     * is a one-byte length, and a brace or a bracket is the tag of a group, which no OTLP message has.
     */
    private static boolean jsonAfterBlanks(byte[] head, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            byte b = head[i];
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                return b == '{' || b == '[';
            }
        }
        return true;
    }

    /** The length a frame header at {@code offset} gives, unsigned. */
    static long frameLength(byte[] b, int offset) {
        return ((b[offset] & 0xFFL) << 24) | ((b[offset + 1] & 0xFFL) << 16) | ((b[offset + 2] & 0xFFL) << 8)
                | (b[offset + 3] & 0xFFL);
    }

    /**
     * The export that {@code length} bytes at {@code offset} encode, nested no deeper than {@code depth}
     * messages; an exception that says what is wrong with them (never their content) when they encode none.
     */
    public static ExportTraceServiceRequest parse(byte[] bytes, int offset, int length, int depth)
            throws InvalidProtocolBufferException {
        CodedInputStream in = CodedInputStream.newInstance(bytes, offset, length);
        // Each AnyValue of an array or list is two messages deep; the export itself takes five.
        in.setRecursionLimit(Math.max(8, Math.min(100, depth + 5)));
        try {
            return ExportTraceServiceRequest.parseFrom(in);
        } catch (InvalidProtocolBufferException e) {
            throw e;
        } catch (IOException e) {
            throw new UncheckedIOException("reading bytes held in memory", e);
        }
    }

    /** The wording of a protobuf parse failure, which protobuf-java writes without any byte of the input. */
    public static String why(InvalidProtocolBufferException e) {
        String m = e.getMessage() == null ? "not a valid protobuf message" : e.getMessage();
        return "malformed protobuf: " + m.replace("Protocol message", "the message").strip();
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

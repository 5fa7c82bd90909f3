package dev.retryaudit.input.foreign.otlp;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.trace.v1.Span;
import java.util.HashMap;
import java.util.Map;

/**
 * Whether bytes are an {@code ExportTraceServiceRequest} in the common form that {@link OtlpProtobufSpans} reads
 * straight from the wire, checked against the published definitions (their descriptors, field by field): every
 * tag, length and number well-formed, every string UTF-8, no message nested deeper than the parse allows, each
 * singular field and each oneof at most once, each known field of its own wire type, and unknown fields of no
 * group. Bytes that pass are what protobuf-java would parse to the same message; any other bytes are
 * {@link ProtobufWire.Irregular}, for protobuf-java to parse (or refuse) as it always has.
 */
final class OtlpWireCheck {
    /** What a message's fields are, by number. */
    private static final class Layout {
        Field[] fields;
    }

    /** A known field: its wire type, whether it repeats, the bits of the fields it excludes, what its bytes hold. */
    private record Field(int wireType, boolean repeated, long excludes, boolean string, boolean span, Layout message) {
    }

    private static final Layout EXPORT = layout(ExportTraceServiceRequest.getDescriptor(), new HashMap<>());

    private final byte[] bytes;
    private final int deepest;
    private long spans;

    private OtlpWireCheck(byte[] bytes, int deepest) {
        this.bytes = bytes;
        this.deepest = deepest;
    }

    /**
     * The spans of the export that {@code length} bytes at {@code offset} encode in the common form, none of its
     * messages more than {@code deepest} deep below the export; {@link ProtobufWire.Irregular} when they are not
     * that form.
     */
    static long spans(byte[] bytes, int offset, int length, int deepest) {
        OtlpWireCheck check = new OtlpWireCheck(bytes, deepest);
        check.message(new ProtobufWire(bytes, offset, length), EXPORT, 0);
        return check.spans;
    }

    private void message(ProtobufWire w, Layout layout, int depth) {
        long seen = 0;
        while (w.more()) {
            int tag = w.tag();
            int number = ProtobufWire.number(tag);
            Field f = number < layout.fields.length ? layout.fields[number] : null;
            if (f == null) {
                w.skip(ProtobufWire.wireType(tag));
                continue;
            }
            if (ProtobufWire.wireType(tag) != f.wireType() || !f.repeated() && (seen & f.excludes()) != 0) {
                throw ProtobufWire.IRREGULAR;
            }
            seen |= 1L << number;
            if (f.message() != null) {
                int length = w.length();
                if (depth + 1 > deepest) {
                    throw ProtobufWire.IRREGULAR;
                }
                int end = w.end;
                w.end = w.pos + length;
                message(w, f.message(), depth + 1);
                w.end = end;
                if (f.span()) {
                    spans++;
                }
            } else if (f.string()) {
                int length = w.length();
                if (!ProtobufWire.utf8(bytes, w.pos, length)) {
                    throw ProtobufWire.IRREGULAR;
                }
                w.pos += length;
            } else {
                w.skip(f.wireType());
            }
        }
    }

    private static Layout layout(Descriptor d, Map<Descriptor, Layout> made) {
        Layout known = made.get(d);
        if (known != null) {
            return known;
        }
        Layout layout = new Layout();
        made.put(d, layout);
        int most = 0;
        for (FieldDescriptor fd : d.getFields()) {
            most = Math.max(most, fd.getNumber());
        }
        if (most >= Long.SIZE) {
            throw new IllegalStateException(d.getFullName() + " has a field numbered " + most + ", past the 63 checked");
        }
        Field[] fields = new Field[most + 1];
        for (FieldDescriptor fd : d.getFields()) {
            long excludes = 1L << fd.getNumber();
            OneofDescriptor oneof = fd.getRealContainingOneof();
            if (oneof != null) {
                for (FieldDescriptor other : oneof.getFields()) {
                    excludes |= 1L << other.getNumber();
                }
            }
            boolean message = fd.getJavaType() == FieldDescriptor.JavaType.MESSAGE;
            if (fd.getType() == FieldDescriptor.Type.GROUP) {
                throw new IllegalStateException(d.getFullName() + " has a group, which OTLP never has");
            }
            fields[fd.getNumber()] = new Field(fd.getLiteType().getWireType(), fd.isRepeated(), excludes,
                    fd.getType() == FieldDescriptor.Type.STRING, message && fd.getMessageType() == Span.getDescriptor(),
                    message ? layout(fd.getMessageType(), made) : null);
        }
        layout.fields = fields;
        return layout;
    }
}

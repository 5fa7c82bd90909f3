package dev.retryaudit.input.foreign.otlp;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.WireFormat;
import dev.retryaudit.input.foreign.RetryLinker;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.model.Limits;
import dev.retryaudit.model.internal.InputException;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Protobuf exports read straight from the wire ({@link OtlpProtobuf#decode}, {@link OtlpProtobufSpans}) are read
 * as protobuf-java parses them: bytes it refuses are refused with its words, and the spans of bytes it takes,
 * however their fields are ordered or whatever unknown fields they carry, are those of the message it parses,
 * written again in its own form.
 */
class OtlpWireTest {
    private static final int DEPTH = Limits.DEFAULTS.depth();

    /** What reading gives: the spans and notes, or the diagnostic of the rejection. */
    private static List<Object> reading(byte[] protobuf) {
        OtlpRecords records = new OtlpRecords("/v1/traces", 0, Limits.DEFAULTS);
        RetryLinker read = new RetryLinker();
        ReadContext notes = records.context();
        List<Object> out = new ArrayList<>();
        try {
            records.read(new OtlpRecords.Record(1, null, protobuf), read, notes);
            out.addAll(read.spans());
        } catch (InputException e) {
            out.add(e.diagnostic());
        }
        out.add(notes.notes());
        return out;
    }

    private static void assertReadAlike(byte[] bytes, byte[] canonical, String as) {
        List<Object> got = reading(bytes);
        List<Object> want = reading(canonical);
        assertThat(got).as(as).hasSameSizeAs(want);
        for (int i = 0; i < got.size(); i++) {
            assertThat(got.get(i)).as(as + ", item " + i).usingRecursiveComparison()
                    .withEqualsForType(Double::equals, Double.class).isEqualTo(want.get(i));
        }
    }

    /** protobuf-java's reading of {@code bytes}: the message, or its words for what is wrong. */
    private static Object protobufJava(byte[] bytes) {
        CodedInputStream in = CodedInputStream.newInstance(bytes);
        in.setRecursionLimit(Math.max(8, Math.min(100, DEPTH + 5)));
        try {
            return ExportTraceServiceRequest.parseFrom(in);
        } catch (InvalidProtocolBufferException e) {
            return OtlpProtobuf.why(e);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static long spans(ExportTraceServiceRequest export) {
        long n = 0;
        for (ResourceSpans rs : export.getResourceSpansList()) {
            for (ScopeSpans ss : rs.getScopeSpansList()) {
                n += ss.getSpansCount();
            }
        }
        return n;
    }

    private static List<byte[]> fixtures() throws IOException {
        List<byte[]> out = new ArrayList<>();
        for (Path f : OtlpProtoFixtures.jsonFiles()) {
            try {
                for (ExportTraceServiceRequest e : OtlpProtoFixtures.exports(f)) {
                    if (e.getSerializedSize() > 0) {
                        out.add(e.toByteArray());
                    }
                }
            } catch (RuntimeException | IOException e) {
                // A fixture that is no export (a log, bad JSON on purpose) has no protobuf form.
            }
        }
        return out;
    }

    @Test
    void fieldsInAnyOrderAndUnknownFieldsAreReadAsTheMessageTheyEncode() throws IOException {
        Random random = new Random(7);
        int n = 0;
        for (byte[] canonical : fixtures()) {
            for (int round = 0; round < 3; round++) {
                byte[] shuffled = shuffled(canonical, ExportTraceServiceRequest.getDescriptor(), random);
                OtlpProtobuf.Decoded d = OtlpProtobuf.decode(shuffled, DEPTH);
                // Kept as sent: no group, each singular field once, so read from the wire as it is.
                assertThat(d.message()).isSameAs(shuffled);
                assertThat(d.spans()).isEqualTo(spans(ExportTraceServiceRequest.parseFrom(canonical)));
                assertReadAlike(shuffled, canonical, "shuffled export " + n);
                n++;
            }
        }
        assertThat(n).isGreaterThan(100);
    }

    @Test
    void bytesCutOrChangedAreTakenOrRefusedAsProtobufJavaDoes() throws IOException {
        Random random = new Random(11);
        int taken = 0;
        int refused = 0;
        for (byte[] canonical : fixtures()) {
            for (int round = 0; round < 20; round++) {
                byte[] bytes = mutated(canonical, random);
                Object want = protobufJava(bytes);
                OtlpProtobuf.Decoded got;
                try {
                    got = OtlpProtobuf.decode(bytes, DEPTH);
                } catch (InvalidProtocolBufferException e) {
                    assertThat(OtlpProtobuf.why(e)).isEqualTo(want);
                    refused++;
                    continue;
                }
                assertThat(want).as("protobuf-java takes what is taken").isInstanceOf(ExportTraceServiceRequest.class);
                ExportTraceServiceRequest export = (ExportTraceServiceRequest) want;
                assertThat(got.spans()).isEqualTo(spans(export));
                assertReadAlike(got.message(), export.toByteArray(), "mutated export");
                taken++;
            }
        }
        assertThat(taken).isGreaterThan(200);
        assertThat(refused).isGreaterThan(200);
    }

    @Test
    void fieldsSentTwiceAreMergedAsProtobufMergesThem() throws IOException {
        Span first = Span.newBuilder().setTraceId(com.google.protobuf.ByteString.copyFrom(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}))
                .setSpanId(com.google.protobuf.ByteString.copyFrom(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}))
                .setName("GET").setKindValue(3)
                .addAttributes(KeyValue.newBuilder().setKey("http.request.method")
                        .setValue(AnyValue.newBuilder().setStringValue("GET")))
                .build();
        Span second = Span.newBuilder().setName("POST")
                .addAttributes(KeyValue.newBuilder().setKey("http.response.status_code")
                        .setValue(AnyValue.newBuilder().setIntValue(503)))
                .build();
        // One span sent as two halves of one message: the second name wins, the attributes add up.
        ByteArrayOutputStream halves = new ByteArrayOutputStream();
        halves.writeBytes(first.toByteArray());
        halves.writeBytes(second.toByteArray());
        byte[] span = halves.toByteArray();
        ByteArrayOutputStream scope = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(scope);
        out.writeByteArray(ScopeSpans.SPANS_FIELD_NUMBER, span);
        out.flush();
        ByteArrayOutputStream resource = new ByteArrayOutputStream();
        out = CodedOutputStream.newInstance(resource);
        out.writeByteArray(ResourceSpans.SCOPE_SPANS_FIELD_NUMBER, scope.toByteArray());
        out.flush();
        ByteArrayOutputStream export = new ByteArrayOutputStream();
        out = CodedOutputStream.newInstance(export);
        out.writeByteArray(ExportTraceServiceRequest.RESOURCE_SPANS_FIELD_NUMBER, resource.toByteArray());
        out.flush();
        byte[] bytes = export.toByteArray();
        OtlpProtobuf.Decoded d = OtlpProtobuf.decode(bytes, DEPTH);
        ExportTraceServiceRequest parsed = ExportTraceServiceRequest.parseFrom(bytes);
        assertThat(d.message()).isNotSameAs(bytes).isEqualTo(parsed.toByteArray());
        byte[] merged = export(first.toBuilder().mergeFrom(second).build());
        assertReadAlike(d.message(), merged, "merged span");
        assertThat(reading(merged).get(0)).usingRecursiveComparison().isNotEqualTo(reading(export(first)).get(0));
    }

    private static byte[] export(Span span) {
        return ExportTraceServiceRequest.newBuilder().addResourceSpans(ResourceSpans.newBuilder()
                .addScopeSpans(ScopeSpans.newBuilder().addSpans(span))).build().toByteArray();
    }

    /** {@code bytes} with one change: a byte flipped, cut short, a byte dropped or one added. */
    private static byte[] mutated(byte[] bytes, Random random) {
        int at = random.nextInt(bytes.length);
        return switch (random.nextInt(4)) {
            case 0 -> {
                byte[] b = bytes.clone();
                b[at] = (byte) random.nextInt(256);
                yield b;
            }
            case 1 -> Arrays.copyOf(bytes, at);
            case 2 -> {
                byte[] b = new byte[bytes.length - 1];
                System.arraycopy(bytes, 0, b, 0, at);
                System.arraycopy(bytes, at + 1, b, at, bytes.length - at - 1);
                yield b;
            }
            default -> {
                byte[] b = new byte[bytes.length + 1];
                System.arraycopy(bytes, 0, b, 0, at);
                b[at] = (byte) random.nextInt(256);
                System.arraycopy(bytes, at, b, at + 1, bytes.length - at);
                yield b;
            }
        };
    }

    /** One field as it was on the wire: its number, and its tag and value written again. */
    private record Field(int number, byte[] encoded) {
    }

    /**
     * {@code message} of type {@code type} with the fields of each message in another order (the occurrences of one
     * field keep theirs) and unknown fields of every wire type but groups put among them.
     */
    private static byte[] shuffled(byte[] message, Descriptor type, Random random) throws IOException {
        CodedInputStream in = CodedInputStream.newInstance(message);
        List<Field> fields = new ArrayList<>();
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            int number = WireFormat.getTagFieldNumber(tag);
            FieldDescriptor fd = type.findFieldByNumber(number);
            ByteArrayOutputStream encoded = new ByteArrayOutputStream();
            CodedOutputStream out = CodedOutputStream.newInstance(encoded);
            if (fd != null && fd.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
                out.writeByteArray(number, shuffled(in.readByteArray(), fd.getMessageType(), random));
            } else {
                // Writes the tag and the value as they came.
                in.skipField(tag, out);
            }
            out.flush();
            fields.add(new Field(number, encoded.toByteArray()));
        }
        Map<Integer, Integer> rank = new HashMap<>();
        fields.forEach(f -> rank.computeIfAbsent(f.number(), k -> random.nextInt()));
        List<Field> ordered = new ArrayList<>(fields);
        ordered.sort(Comparator.comparing(f -> rank.get(f.number())));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        for (Field f : ordered) {
            if (random.nextInt(4) == 0) {
                unknown(out, random);
            }
            out.writeRawBytes(f.encoded());
        }
        out.flush();
        return bytes.toByteArray();
    }

    /** An unknown field (numbered past those of every OTLP message) of a random wire type, groups aside. */
    private static void unknown(CodedOutputStream out, Random random) throws IOException {
        int number = 40 + random.nextInt(10);
        switch (random.nextInt(4)) {
            case 0 -> out.writeUInt64(number, random.nextLong());
            case 1 -> out.writeFixed64(number, random.nextLong());
            case 2 -> out.writeByteArray(number, new byte[random.nextInt(5)]);
            default -> out.writeFixed32(number, random.nextInt());
        }
    }
}

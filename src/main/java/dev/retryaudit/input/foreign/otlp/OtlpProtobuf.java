package dev.retryaudit.input.foreign.otlp;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * OTLP in the protobuf encoding, as OTLP/HTTP bodies and the collector's file exporter
 * ({@code format: proto}) carry it: an {@code ExportTraceServiceRequest} (or {@code TracesData}, the
 * same message on the wire) checked against the published definitions ({@link #decode}), whose spans a record
 * of {@link OtlpRecords} reads from the wire with the checks of OTLP/JSON ({@link OtlpProtobufSpans}); the
 * framing of the file exporter's files.
 */
public final class OtlpProtobuf {
    /** The bytes of the file exporter's frame header: each message's length, unsigned 32-bit big-endian. */
    public static final int FRAME_HEADER = 4;
    /** The tag of {@code resource_spans} (field 1, length-delimited): how a non-empty export begins. */
    private static final int RESOURCE_SPANS_TAG = 0x0A;

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
     * An export in protobuf as {@link OtlpRecords} reads it: its bytes, in the common form (each singular field
     * once), and how many spans it holds.
     */
    public record Decoded(byte[] message, long spans) {
    }

    /**
     * The export that {@code message} encodes, nested no deeper than {@code depth} messages; an exception that says
     * what is wrong with it (never its content) when it encodes none. Bytes in the common form that exporters send
     * are checked on the wire and kept as they are ({@link OtlpWireCheck}); any others are parsed by protobuf-java,
     * which decides whether and how they are wrong, and written again in that form.
     */
    public static Decoded decode(byte[] message, int depth) throws InvalidProtocolBufferException {
        // Each AnyValue of an array or list is two messages deep; the export itself takes five.
        int limit = Math.max(8, Math.min(100, depth + 5));
        try {
            return new Decoded(message, OtlpWireCheck.spans(message, 0, message.length, limit));
        } catch (ProtobufWire.Irregular e) {
            // Not the common form: protobuf-java parses it below.
        }
        CodedInputStream in = CodedInputStream.newInstance(message);
        in.setRecursionLimit(limit);
        ExportTraceServiceRequest export;
        try {
            export = ExportTraceServiceRequest.parseFrom(in);
        } catch (InvalidProtocolBufferException e) {
            throw e;
        } catch (IOException e) {
            throw new UncheckedIOException("reading bytes held in memory", e);
        }
        long spans = 0;
        for (ResourceSpans rs : export.getResourceSpansList()) {
            for (ScopeSpans ss : rs.getScopeSpansList()) {
                spans += ss.getSpansCount();
            }
        }
        return new Decoded(export.toByteArray(), spans);
    }

    /** The wording of a protobuf parse failure, which protobuf-java writes without any byte of the input. */
    public static String why(InvalidProtocolBufferException e) {
        String m = e.getMessage() == null ? "not a valid protobuf message" : e.getMessage();
        return "malformed protobuf: " + m.replace("Protocol message", "the message").strip();
    }
}

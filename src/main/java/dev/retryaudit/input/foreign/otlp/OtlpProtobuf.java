package dev.retryaudit.input.foreign.otlp;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * OTLP in the protobuf encoding, as OTLP/HTTP bodies and the collector's file exporter
 * ({@code format: proto}) carry it: an {@code ExportTraceServiceRequest} (or {@code TracesData}, the
 * same message on the wire) parsed with the published definitions, whose spans a record of
 * {@link OtlpRecords} reads with the checks of OTLP/JSON ({@link OtlpProtobufSpans}); the framing of the
 * file exporter's files.
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
}

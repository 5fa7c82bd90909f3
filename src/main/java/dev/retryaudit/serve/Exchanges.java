package dev.retryaudit.serve;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.google.protobuf.CodedOutputStream;
import io.opentelemetry.proto.collector.trace.v1.ExportTracePartialSuccess;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The bodies OTLP/HTTP answers with, in the encoding of the request: an {@code ExportTraceServiceResponse}
 * on success (with {@code partial_success} only when spans were rejected) and a {@code google.rpc.Status}
 * on failure, each as protobuf or as OTLP/JSON.
 */
final class Exchanges {
    static final String PROTOBUF = "application/x-protobuf";
    static final String JSON = "application/json";

    /** {@code google.rpc.Code} values the receiver answers with. */
    static final int INVALID_ARGUMENT = 3;
    static final int NOT_FOUND = 5;
    static final int RESOURCE_EXHAUSTED = 8;
    static final int INTERNAL = 13;
    static final int UNAVAILABLE = 14;

    private Exchanges() {
    }

    /** The success body: empty when every span was taken, else the count rejected and why. */
    static byte[] response(boolean protobuf, long rejected, String message) {
        if (protobuf) {
            ExportTraceServiceResponse.Builder b = ExportTraceServiceResponse.newBuilder();
            if (rejected > 0) {
                b.setPartialSuccess(ExportTracePartialSuccess.newBuilder().setRejectedSpans(rejected)
                        .setErrorMessage(message));
            }
            return b.build().toByteArray();
        }
        if (rejected == 0) {
            return "{}".getBytes(StandardCharsets.UTF_8);
        }
        // int64 is a decimal string in protobuf's JSON mapping.
        return ("{\"partialSuccess\":{\"rejectedSpans\":\"" + rejected + "\",\"errorMessage\":" + quoted(message)
                + "}}").getBytes(StandardCharsets.UTF_8);
    }

    /** A {@code google.rpc.Status} with {@code code} and {@code message} (no details). */
    static byte[] status(boolean protobuf, int code, String message) {
        if (!protobuf) {
            return ("{\"code\":" + code + ",\"message\":" + quoted(message) + "}").getBytes(StandardCharsets.UTF_8);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        try {
            out.writeInt32(1, code);
            out.writeString(2, message);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory", e);
        }
        return bytes.toByteArray();
    }

    /** {@code s} as a JSON string. */
    static String quoted(String s) {
        return "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(s)) + "\"";
    }
}

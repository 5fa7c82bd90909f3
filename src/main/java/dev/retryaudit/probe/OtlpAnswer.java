package dev.retryaudit.probe;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * How the probe answers a request an OpenTelemetry exporter sends to an OTLP/HTTP receiver's path
 * ({@code /v1/traces}, {@code /v1/metrics}, {@code /v1/logs}): in the request's encoding, as the
 * OTLP specification says a receiver does. A success is an empty export response (zero bytes of
 * protobuf, or {@code {}} in JSON); a failure is a {@code google.rpc.Status} with the gRPC code of
 * its status and a message.
 */
record OtlpAnswer(boolean protobuf) {
    /** The paths of the OTLP/HTTP signals. */
    static final List<String> PATHS = List.of("/v1/traces", "/v1/metrics", "/v1/logs");

    private static final String PROTOBUF = "application/x-protobuf";

    /** The answer for a request to {@code path} with {@code contentType} (null when absent), or null when it is no OTLP export. */
    static OtlpAnswer of(String path, String contentType) {
        int query = path.indexOf('?');
        String bare = query < 0 ? path : path.substring(0, query);
        if (PATHS.stream().noneMatch(bare::endsWith)) {
            return null;
        }
        String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
        return new OtlpAnswer(type.startsWith(PROTOBUF) || type.startsWith("application/protobuf"));
    }

    /** The Content-Type of the answer. */
    String contentType() {
        return protobuf ? PROTOBUF : "application/json";
    }

    /** The body answering with {@code status}: an empty export response on success, else a {@code google.rpc.Status}. */
    byte[] body(int status) {
        if (status < 300) {
            return protobuf ? new byte[0] : "{}".getBytes(StandardCharsets.UTF_8);
        }
        int code = grpcCode(status);
        String message = "retry-audit probe: status " + status;
        if (!protobuf) {
            return ("{\"code\":" + code + ",\"message\":\"" + message + "\"}").getBytes(StandardCharsets.UTF_8);
        }
        byte[] text = message.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0x08); // field 1, code: a varint under 128
        out.write(code);
        out.write(0x12); // field 2, message: a string under 128 bytes
        out.write(text.length);
        out.writeBytes(text);
        return out.toByteArray();
    }

    /** The gRPC code a receiver reports for an HTTP status (the OTLP specification's mapping). */
    static int grpcCode(int status) {
        return switch (status) {
            case 400, 422 -> 3; // INVALID_ARGUMENT
            case 429 -> 8; // RESOURCE_EXHAUSTED
            case 502, 503, 504 -> 14; // UNAVAILABLE
            case 410 -> 9; // FAILED_PRECONDITION
            case 405 -> 12; // UNIMPLEMENTED
            default -> 13; // INTERNAL
        };
    }
}

package dev.retryaudit.input.foreign;

import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.model.GrpcStatus;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.text.Escaping;

/**
 * What a span says of a gRPC call, in either shape producers write: the semantic conventions' CLIENT
 * and SERVER spans ({@code rpc.system} {@code grpc}, one client span per call, as the OpenTelemetry
 * Java agent writes them), or grpc-java's own tracing (gRFC A72: an INTERNAL {@code Sent.<method>}
 * span per call, an {@code Attempt.<method>} child per attempt with {@code previous-rpc-attempts} and
 * {@code transparent-retry}, a {@code Recv.<method>} span on the server).
 */
final class GrpcSpan {
    /** The part the span plays in a call. */
    enum Role {
        /** The whole call as the client saw it: its one attempt unless attempt spans or server spans show more. */
        CALL,
        /** One attempt of a call (A72). */
        ATTEMPT,
        /** The server's handling of one attempt. */
        SERVER
    }

    private static final int SPAN_KIND_SERVER = 2;
    private static final int STATUS_CODE_OK = 1;
    private static final int STATUS_CODE_ERROR = 2;

    final Role role;
    /** The full method name, {@code package.Service/Method}. */
    final String method;
    /** {@code previous-rpc-attempts} of an attempt span, or null. */
    final Integer previousAttempts;
    /** Whether an attempt span is a transparent retry (sent again because the first never reached the server). */
    final boolean transparent;
    /** Whether the span is of the semantic conventions' shape, whose client span stands for all its call's attempts. */
    final boolean conventions;

    GrpcSpan(Role role, String method, Integer previousAttempts, boolean transparent, boolean conventions) {
        this.role = role;
        this.method = method;
        this.previousAttempts = previousAttempts;
        this.transparent = transparent;
        this.conventions = conventions;
    }

    /** The gRPC facts of a span that is no other kind of attempt, or null when it records no gRPC call. */
    static GrpcSpan of(SpanScratch s, ReadContext ctx) throws InputException {
        String system = s.hint(OtlpAttribute.RPC_SYSTEM, ctx);
        if (system != null) {
            if (!system.equals("grpc")) {
                return null;
            }
            String method = conventionMethod(s, ctx);
            return method == null ? null : new GrpcSpan(s.spanKind == SPAN_KIND_SERVER ? Role.SERVER : Role.CALL,
                    method, null, false, true);
        }
        String name = s.name;
        if (name == null) {
            return null;
        }
        // Zipkin stores span names in lower case: the prefixes are matched in any case
        if (OtlpAttribute.startsWithIgnoreCase(name, "Attempt.")) {
            Long previous = s.integer(OtlpAttribute.GRPC_PREVIOUS_ATTEMPTS, 0, Integer.MAX_VALUE);
            String method = a72Method(name, "Attempt.".length());
            if (previous == null || method == null) {
                return null;
            }
            return new GrpcSpan(Role.ATTEMPT, method, previous.intValue(),
                    Boolean.TRUE.equals(s.bool(OtlpAttribute.GRPC_TRANSPARENT_RETRY)), false);
        }
        boolean sent = OtlpAttribute.startsWithIgnoreCase(name, "Sent.");
        if (sent || OtlpAttribute.startsWithIgnoreCase(name, "Recv.")) {
            String method = a72Method(name, 5);
            return method == null ? null : new GrpcSpan(sent ? Role.CALL : Role.SERVER, method, null, false, false);
        }
        return null;
    }

    /**
     * The full method name from the semantic conventions: {@code rpc.method} alone where it holds it
     * ({@code package.Service/Method}, the current conventions), else {@code rpc.service/rpc.method},
     * else the span name when it is one; null when none names a method.
     */
    private static String conventionMethod(SpanScratch s, ReadContext ctx) {
        String method = s.hint(OtlpAttribute.RPC_METHOD, ctx);
        String service = s.hint(OtlpAttribute.RPC_SERVICE, ctx);
        if (method != null && method.indexOf('/') > 0) {
            return method;
        }
        if (method != null && service != null) {
            return service + "/" + method;
        }
        String name = s.name;
        return name != null && name.indexOf('/') > 0 && name.indexOf(' ') < 0 ? name : null;
    }

    /**
     * The full method name in an A72 span name after its prefix: grpc-java writes
     * {@code package.Service.Method} (the slash made a dot), gRPC C++ {@code package.Service/Method}.
     */
    private static String a72Method(String name, int from) {
        String rest = name.substring(from);
        if (rest.indexOf('/') > 0) {
            return rest;
        }
        int dot = rest.lastIndexOf('.');
        return dot <= 0 || dot == rest.length() - 1 ? null : rest.substring(0, dot) + "/" + rest.substring(dot + 1);
    }

    /**
     * The span's gRPC status: {@code rpc.response.status_code} (a name) or {@code rpc.grpc.status_code}
     * (a number), else the name that an ERROR status's message (or {@code error.type}, or Zipkin's
     * {@code error} tag) begins with, else OK for status OK; null when none says (an unfinished or unset
     * span).
     */
    static GrpcStatus status(SpanScratch s, ReadContext ctx) {
        String recorded = s.hint(OtlpAttribute.GRPC_STATUS, ctx);
        GrpcStatus status = recorded == null ? null : GrpcStatus.parse(recorded);
        if (recorded != null && status == null) {
            ctx.note(s.line, s.column, "span " + s.ids[1] + " has gRPC status \"" + Escaping.shortened(recorded, 40)
                    + "\", not one of the 17 codes; read from the span status instead");
        }
        if (status == null && s.statusCode == STATUS_CODE_ERROR) {
            status = GrpcStatus.ofMessage(s.statusMessage);
        }
        if (status == null && s.statusCode == STATUS_CODE_ERROR) {
            // the conventions make error.type the status name; Zipkin's error tag holds the status message
            status = GrpcStatus.ofMessage(s.hint(OtlpAttribute.ERROR_TYPE, ctx));
        }
        if (status == null && s.statusCode == STATUS_CODE_OK) {
            status = GrpcStatus.OK;
        }
        return status;
    }

    /** Fills the hop of a gRPC span: outcome and status, pushback, and an attempt's send time. */
    static void fill(ForeignSpan span, SpanScratch s, ReadContext ctx) {
        GrpcSpan g = span.grpc;
        Hop hop = span.hop;
        hop.grpcStatus = status(s, ctx);
        // without a status, what error.type, an exception event or the span status say, as for HTTP
        hop.outcome = hop.grpcStatus != null ? hop.grpcStatus.outcome() : hop.outcome;
        hop.errorClass = hop.grpcStatus == null ? null : hop.grpcStatus.errorClass();
        hop.retryPushback = s.hint(OtlpAttribute.GRPC_PUSHBACK, ctx);
        // An A72 attempt span opens when the previous attempt ends: the backoff wait is inside it, and
        // the attempt was sent when its first message went out.
        if (g.role == Role.ATTEMPT && s.sendNanos != 0 && Long.compareUnsigned(s.sendNanos, s.nanos[0]) >= 0) {
            hop.startedAt = Long.divideUnsigned(s.sendNanos, 1_000_000);
        }
        String method = s.strings.share(g.method);
        span.url = method;
        span.toolName = method;
        span.method = null;
    }
}

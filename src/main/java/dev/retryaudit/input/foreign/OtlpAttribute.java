package dev.retryaudit.input.foreign;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The span attributes the OTLP reader uses, each under its keys in order of precedence: our own
 * explicit {@code retry_audit.*} names (and the bare names of the spans format), then the current
 * OpenTelemetry semantic conventions before their legacy names. Every other attribute is ignored.
 */
public enum OtlpAttribute {
    OPERATION_ID("retry_audit.operation_id"),
    ATTEMPT_ID("retry_audit.attempt_id", "attempt_id"),
    IDEMPOTENCY_KEY("retry_audit.idempotency_key", "idempotency_key"),
    COMMIT_STATE("retry_audit.commit_state", "commit_state"),
    COMMIT_STATE_SOURCE("retry_audit.commit_state_source"),
    RETRY_REASON("retry_audit.retry_reason", "retry_reason"),
    REQUEST_HASH("retry_audit.request_hash"),
    EFFECT("retry_audit.effect"),
    RUN_ID("retry_audit.run_id", "parent_run_id"),
    METHOD("http.request.method", "http.method"),
    METHOD_ORIGINAL("http.request.method_original"),
    URL("url.full", "http.url"),
    STATUS("http.response.status_code", "http.status_code"),
    RESEND_COUNT("http.request.resend_count", "http.resend_count", "http.retry_count"),
    RETRY_AFTER("http.response.header.retry-after"),
    RESPONSE_DATE("http.response.header.date"),
    IDEMPOTENCY_HEADER("http.request.header.idempotency-key", "rpc.grpc.request.metadata.idempotency-key"),
    ERROR_TYPE("error.type"),
    GEN_AI_OPERATION("gen_ai.operation.name"),
    TOOL_NAME("gen_ai.tool.name", "ai.toolCall.name", "tool.name"),
    TOOL_CALL_ID("gen_ai.tool.call.id", "ai.toolCall.id", "tool_call.id", "jsonrpc.request.id"),
    TOOL_ARGUMENTS("gen_ai.tool.call.arguments", "ai.toolCall.args", "tool_arguments", "input.value", "gen_ai.prompt"),
    TOOL_ATTEMPT("gen_ai.tool.call.attempt", "retry.attempt", "gen_ai.request.retry_count"),
    MCP_METHOD("mcp.method.name"),
    OPENINFERENCE_KIND("openinference.span.kind"),
    AI_SDK_OPERATION("ai.operationId", "operation.name"),
    CLIENT_REQUEST_ID("http.request.header.x-ms-client-request-id", "http.request.header.amz-sdk-invocation-id",
            "requestId"),
    SDK_ATTEMPT_HEADER("http.request.header.amz-sdk-request"),
    SERVER_ADDRESS("server.address", "net.peer.name"),
    RETRY_AFTER_MS("http.response.header.retry-after-ms"),
    RETRY_COUNT_HEADER("http.request.header.x-stainless-retry-count"),
    THREAD_ID("thread.id"),
    THREAD_NAME("thread.name"),
    RPC_SYSTEM("rpc.system.name", "rpc.system"),
    RPC_SERVICE("rpc.service"),
    RPC_METHOD("rpc.method"),
    GRPC_STATUS("rpc.response.status_code", "rpc.grpc.status_code"),
    GRPC_PREVIOUS_ATTEMPTS("previous-rpc-attempts"),
    GRPC_TRANSPARENT_RETRY("transparent-retry"),
    GRPC_PUSHBACK("rpc.grpc.response.metadata.grpc-retry-pushback-ms"),
    MESSAGING_SYSTEM("messaging.system"),
    DB_SYSTEM("db.system.name", "db.system");

    /** The prefix of recorded request headers: where a span has any, a missing Idempotency-Key header was not sent. */
    static final String REQUEST_HEADER_PREFIX = "http.request.header.";
    static final String RESPONSE_HEADER_PREFIX = "http.response.header.";
    /** The prefixes of recorded gRPC call metadata, which the instrumentations record as headers are. */
    static final String GRPC_REQUEST_METADATA_PREFIX = "rpc.grpc.request.metadata.";
    static final String GRPC_RESPONSE_METADATA_PREFIX = "rpc.grpc.response.metadata.";

    /** An attribute found under one of its keys, with that key's precedence (0 is highest). */
    public record Match(OtlpAttribute attribute, int precedence, String key) {
    }

    private static final Map<String, Match> BY_KEY = new HashMap<>();

    static {
        for (OtlpAttribute a : values()) {
            for (int i = 0; i < a.keys.size(); i++) {
                BY_KEY.put(a.keys.get(i), new Match(a, i, a.keys.get(i)));
            }
        }
    }

    final List<String> keys;

    OtlpAttribute(String... keys) {
        this.keys = List.of(keys);
    }

    /** Whether this is one of our explicit attributes, which make any span an attempt. */
    boolean explicit() {
        return ordinal() <= RUN_ID.ordinal();
    }

    /**
     * The attribute an attribute key names, or null; header keys match whatever their case, and with
     * {@code _} for {@code -} in the header name (as OpenTelemetry Python writes them).
     */
    public static Match find(String key) {
        Match m = BY_KEY.get(key);
        if (m == null) {
            int prefix = startsWithIgnoreCase(key, REQUEST_HEADER_PREFIX) ? REQUEST_HEADER_PREFIX.length()
                    : startsWithIgnoreCase(key, RESPONSE_HEADER_PREFIX) ? RESPONSE_HEADER_PREFIX.length()
                    : startsWithIgnoreCase(key, GRPC_REQUEST_METADATA_PREFIX) ? GRPC_REQUEST_METADATA_PREFIX.length()
                    : startsWithIgnoreCase(key, GRPC_RESPONSE_METADATA_PREFIX) ? GRPC_RESPONSE_METADATA_PREFIX.length() : -1;
            if (prefix > 0) {
                String lower = key.toLowerCase(Locale.ROOT);
                m = BY_KEY.get(lower.substring(0, prefix) + lower.substring(prefix).replace('_', '-'));
            }
        }
        return m;
    }

    /**
     * Whether {@code key} records a request header or a gRPC call's request metadata: a span that
     * records any records the Idempotency-Key too when one was sent.
     */
    public static boolean isRequestHeader(String key) {
        return startsWithIgnoreCase(key, REQUEST_HEADER_PREFIX) || startsWithIgnoreCase(key, GRPC_REQUEST_METADATA_PREFIX);
    }

    /** Whether {@code key} records a response header or a gRPC call's response metadata. */
    static boolean isResponseHeader(String key) {
        return startsWithIgnoreCase(key, RESPONSE_HEADER_PREFIX) || startsWithIgnoreCase(key, GRPC_RESPONSE_METADATA_PREFIX);
    }

    public static boolean startsWithIgnoreCase(String key, String prefix) {
        return key.regionMatches(true, 0, prefix, 0, prefix.length());
    }
}

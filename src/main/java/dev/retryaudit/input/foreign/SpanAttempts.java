package dev.retryaudit.input.foreign;

import dev.retryaudit.json.JsonPointers;
import dev.retryaudit.json.StringPool;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.model.CommitState;
import dev.retryaudit.model.CommitStateSource;
import dev.retryaudit.model.Effect;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Outcome;
import dev.retryaudit.text.Times;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Turns a span read into the scratch (OTLP, Zipkin or Jaeger alike) into the attempt it records,
 * with the ids, times and outcome checked the same way for every foreign format.
 */
public final class SpanAttempts {
    private static final int SPAN_KIND_SERVER = 2;
    private static final int STATUS_CODE_ERROR = 2;

    private SpanAttempts() {
    }

    /**
     * The span as an attempt, or null when it is none: an attempt carries one of our explicit
     * attributes, or is a GenAI tool execution, or an HTTP request seen by anything but its server
     * (the server span of a request repeats what the client span records), or a span of a gRPC call
     * ({@link GrpcSpan}). A span that is none is counted by why, and one that records another protocol for a note.
     */
    public static ForeignSpan attempt(SpanScratch s, ReadContext ctx) throws InputException {
        ForeignSpan.Kind kind = attemptKind(s);
        GrpcSpan grpc = kind == null ? GrpcSpan.of(s, ctx) : null;
        if (kind == null && grpc == null) {
            boolean protocol = s.unused.count(s, ctx);
            ctx.withoutAttempt().count(s.spanKind == SPAN_KIND_SERVER, protocol);
            return protocol ? null : wrapper(s, ctx);
        }
        kind = grpc != null ? ForeignSpan.Kind.GRPC : kind;
        ForeignSpan span = placed(s, ctx, kind);
        StringPool strings = s.strings;
        span.server = s.spanKind == SPAN_KIND_SERVER;
        span.operationId = s.string(OtlpAttribute.OPERATION_ID);
        if (span.operationId != null && span.operationId.isEmpty()) {
            throw InputException.rejected(ctx.source(), s.line, s.column, JsonPointers.toPath(s.pointer()),
                    "attribute retry_audit.operation_id must not be empty");
        }
        span.runId = strings.share(s.string(OtlpAttribute.RUN_ID));
        span.effect = s.enumValue(OtlpAttribute.EFFECT, Effect.class);
        span.method = strings.share(method(s));
        span.url = strings.share(s.string(OtlpAttribute.URL));
        String address = s.hint(OtlpAttribute.SERVER_ADDRESS, ctx);
        String host = span.url == null ? null : Http.host(span.url);
        span.host = strings.share(host != null ? host : address);
        span.toolName = strings.share(emptyToNull(s.string(OtlpAttribute.TOOL_NAME)));
        span.requestHeaders = s.requestHeaders;
        span.responseHeaders = s.responseHeaders;

        Hop hop = span.hop;
        Long attemptId = s.integer(OtlpAttribute.ATTEMPT_ID, 1, Integer.MAX_VALUE);
        hop.attemptId = attemptId == null ? null : attemptId.intValue();
        Long resends = s.integer(OtlpAttribute.RESEND_COUNT, 0, Integer.MAX_VALUE - 1);
        hop.resendCount = resends == null ? null : resends.intValue();
        span.resendSource = resends == null ? null : "resend_count";
        if (resends == null) {
            hop.resendCount = Headers.sdkAttempt(s.hint(OtlpAttribute.SDK_ATTEMPT_HEADER, ctx));
            span.resendSource = hop.resendCount == null ? null : Headers.SDK_ATTEMPT;
        }
        if (hop.resendCount == null) {
            hop.resendCount = Headers.retryCount(s.hint(OtlpAttribute.RETRY_COUNT_HEADER, ctx));
            span.resendSource = hop.resendCount == null ? null : Headers.RETRY_COUNT;
        }
        hop.clientRequestId = strings.share(emptyToNull(s.hint(OtlpAttribute.CLIENT_REQUEST_ID, ctx)));
        if (kind == ForeignSpan.Kind.TOOL) {
            ToolSpans.fill(span, s, ctx);
        }
        String thread = s.hint(OtlpAttribute.THREAD_ID, ctx);
        span.thread = strings.share(thread != null ? thread : s.hint(OtlpAttribute.THREAD_NAME, ctx));
        hop.spanId = span.spanId;
        String key = s.string(OtlpAttribute.IDEMPOTENCY_KEY);
        hop.idempotencyKey = key != null ? key : s.header(OtlpAttribute.IDEMPOTENCY_HEADER, false);
        times(s, hop, ctx);
        // Some instrumentations record status 0 for a request that got no response: that is no status.
        Long recorded = s.integer(OtlpAttribute.STATUS, Long.MIN_VALUE, Long.MAX_VALUE);
        Long status = recorded == null || recorded == 0 ? null : s.integer(OtlpAttribute.STATUS, 100, 599);
        hop.status = status == null ? null : status.intValue();
        String errorType = s.hint(OtlpAttribute.ERROR_TYPE, ctx);
        hop.outcome = outcome(hop.status, errorType, s.statusCode, s.exception, kind == ForeignSpan.Kind.TOOL);
        if (kind == ForeignSpan.Kind.TOOL && hop.outcome == Outcome.SUCCESS && s.exceptionEvent) {
            // A tool span whose status was left OK over an exception event (LangSmith's export) failed.
            hop.outcome = s.exception != null ? s.exception : Outcome.ERROR;
        }
        if (kind == ForeignSpan.Kind.HTTP && hop.status == null) {
            hop.outcome = Unanswered.outcome(hop.outcome, errorType, s.statusMessage);
        } else if (kind == ForeignSpan.Kind.TOOL) {
            hop.outcome = Unanswered.aborted(hop.outcome, errorType, s.statusMessage);
        }
        if (hop.outcome == null && s.recordsEveryStatus && Abandoned.is(span, s.nanos[1] != 0, hop.status,
                errorType, s.statusCode, s.exception)) {
            hop.outcome = Outcome.TIMEOUT;
            span.abandoned = true;
        }
        hop.retryAfter = s.fieldValue(OtlpAttribute.RETRY_AFTER, true);
        if (hop.retryAfter == null) {
            hop.retryAfter = Headers.retryAfterFromMillis(s.hint(OtlpAttribute.RETRY_AFTER_MS, ctx));
        }
        hop.responseDate = s.fieldValue(OtlpAttribute.RESPONSE_DATE, false);
        hop.commitState = s.enumValue(OtlpAttribute.COMMIT_STATE, CommitState.class);
        hop.commitStateSource = s.enumValue(OtlpAttribute.COMMIT_STATE_SOURCE, CommitStateSource.class);
        hop.retryReason = s.string(OtlpAttribute.RETRY_REASON);
        hop.requestHash = s.string(OtlpAttribute.REQUEST_HASH);
        if (grpc != null) {
            span.grpc = grpc;
            GrpcSpan.fill(span, s, ctx);
        }
        return span;
    }

    private static ForeignSpan.Kind attemptKind(SpanScratch s) throws InputException {
        if (ToolSpans.is(s)) {
            return ForeignSpan.Kind.TOOL;
        }
        boolean http = s.has(OtlpAttribute.METHOD) && method(s) != null;
        if (http && s.spanKind != SPAN_KIND_SERVER) {
            return ForeignSpan.Kind.HTTP;
        }
        for (OtlpAttribute a : OtlpAttribute.values()) {
            if (a.explicit() && s.has(a)) {
                return http ? ForeignSpan.Kind.HTTP : ForeignSpan.Kind.EXPLICIT;
            }
        }
        return null;
    }

    /**
     * A span that records no attempt and no protocol, kept as a possible wrapper of sends: its ids and
     * name only. Null for a span without a trace and span id, which nothing can stand under.
     */
    private static ForeignSpan wrapper(SpanScratch s, ReadContext ctx) throws InputException {
        if (s.ids[0] == null || s.ids[0].isEmpty() || s.ids[1] == null || s.ids[1].isEmpty()
                || s.spanKind == SPAN_KIND_SERVER) {
            return null;
        }
        ForeignSpan span;
        try {
            span = placed(s, ctx, ForeignSpan.Kind.WRAPPER);
            span.modelCall = ModelCalls.is(s);
        } catch (InputException notJudged) {
            // A span of no attempt is not judged: one whose ids or attributes do not read is no wrapper either.
            return null;
        }
        return span;
    }

    /** A span of {@code kind} at its place in the source, with its ids (checked), name and start. */
    private static ForeignSpan placed(SpanScratch s, ReadContext ctx, ForeignSpan.Kind kind) throws InputException {
        ForeignSpan span = new ForeignSpan();
        span.kind = kind;
        span.order = s.order;
        span.line = s.line;
        span.column = s.column;
        span.arrayPointer = s.arrayPointer;
        span.index = s.index;
        StringPool strings = s.strings;
        span.traceId = strings.share(hexId(s, 0, "traceId", 32, ctx, true));
        span.spanId = hexId(s, 1, "spanId", 16, ctx, true);
        span.parentSpanId = strings.share(hexId(s, 2, "parentSpanId", 16, ctx, false));
        span.name = strings.share(s.name);
        span.startNanos = s.nanos[0];
        return span;
    }

    /** The request method; semantic conventions write {@code _OTHER} for an unknown one and keep the original. */
    private static String method(SpanScratch s) throws InputException {
        String method = emptyToNull(s.string(OtlpAttribute.METHOD));
        if ("_OTHER".equals(method)) {
            String original = emptyToNull(s.string(OtlpAttribute.METHOD_ORIGINAL));
            return original != null ? original : method;
        }
        return method;
    }

    /**
     * A lower-case hex id of {@code digits} digits; an absent or empty optional id (a root span's
     * parent) is "", and so is an all-zero parent id.
     */
    private static String hexId(SpanScratch s, int which, String field, int digits, ReadContext ctx, boolean required)
            throws InputException {
        String id = s.ids[which];
        field = s.idNames[which];
        if (id == null || id.isEmpty()) {
            if (required) {
                String what = id == null ? "missing required field " + field : field + " is empty";
                throw idError(s, which, field, ctx, what + ": an attempt span needs its " + field);
            }
            return "";
        }
        boolean hex = id.length() == digits;
        for (int i = 0; hex && i < id.length(); i++) {
            char ch = id.charAt(i);
            hex = ch >= '0' && ch <= '9' || ch >= 'a' && ch <= 'f' || ch >= 'A' && ch <= 'F';
        }
        if (!hex) {
            id = base64Hex(id, digits / 2);
            if (id == null) {
                throw idError(s, which, field, ctx, "expected " + digits + " hexadecimal digits (" + digits / 2
                        + " bytes), or the " + digits / 2 + " bytes in base64");
            }
        }
        boolean zero = true;
        for (int i = 0; zero && i < id.length(); i++) {
            zero = id.charAt(i) == '0';
        }
        if (zero && required) {
            throw idError(s, which, field, ctx, "an all-zero " + field + " is invalid");
        }
        return zero ? "" : id.toLowerCase(Locale.ROOT);
    }

    /**
     * An id of {@code bytes} bytes written in base64, as protobuf's JSON mapping writes bytes fields
     * ({@code MessageToJson}), in hex; null when it is not one (padded or not, standard or URL alphabet).
     */
    private static String base64Hex(String id, int bytes) {
        int unpadded = (bytes * 4 + 2) / 3;
        int padded = (bytes + 2) / 3 * 4;
        if (id.length() != unpadded && id.length() != padded) {
            return null;
        }
        String standard = id.replace('-', '+').replace('_', '/');
        try {
            byte[] raw = Base64.getDecoder().decode(id.length() == padded ? standard
                    : standard + "=".repeat(padded - unpadded));
            return raw.length == bytes ? HexFormat.of().formatHex(raw) : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** An error at id {@code which} of the span, or at the span itself when the id is absent. */
    private static InputException idError(SpanScratch s, int which, String field, ReadContext ctx, String detail) {
        boolean absent = s.ids[which] == null;
        return InputException.rejected(ctx.source(), absent ? s.line : s.idPlaces[2 * which],
                absent ? s.column : s.idPlaces[2 * which + 1], JsonPointers.toPath(s.pointer() + "/" + field), detail);
    }

    private static void times(SpanScratch s, Hop hop, ReadContext ctx) throws InputException {
        long start = s.nanos[0];
        long end = s.nanos[1];
        if (start != 0 && end != 0 && Long.compareUnsigned(end, start) < 0) {
            throw InputException.rejected(ctx.source(), s.nanoPlaces[2], s.nanoPlaces[3],
                    JsonPointers.toPath(s.pointer() + "/endTimeUnixNano"),
                    "endTimeUnixNano is before startTimeUnixNano");
        }
        hop.startedAt = start == 0 ? Times.NONE : Long.divideUnsigned(start, 1_000_000);
        hop.endedAt = end == 0 ? Times.NONE : Long.divideUnsigned(end, 1_000_000);
    }

    /**
     * What the caller saw: a timeout, cancellation or connection failure named by {@code error.type};
     * else the HTTP status; else, for an error span (status 2), what its exception event names; else an
     * error where {@code error.type} or the span status says so; else success where the span status is
     * OK, or for a tool call (whose status stays unset unless it failed); else unknown (an HTTP span
     * without a status, which {@link #attempt} reads as a timeout where it ended with nothing recorded
     * of how: {@link Abandoned}).
     */
    private static Outcome outcome(Integer status, String errorType, int statusCode, Outcome exception, boolean tool) {
        Outcome named = errorType == null ? null : Http.errorOutcome(errorType);
        if (named != null) {
            return named;
        }
        if (status != null) {
            return Http.outcome(status);
        }
        if (statusCode == STATUS_CODE_ERROR && exception != null) {
            return exception;
        }
        if (errorType != null || statusCode == STATUS_CODE_ERROR) {
            return Outcome.ERROR;
        }
        return statusCode == 1 || tool ? Outcome.SUCCESS : null;
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}

package dev.retryaudit.input;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.model.CommitState;
import dev.retryaudit.model.CommitStateSource;
import dev.retryaudit.model.Effect;
import dev.retryaudit.model.Outcome;
import dev.retryaudit.model.Times;
import java.io.IOException;
import java.math.BigInteger;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * Reads OpenTelemetry trace exports in the OTLP/JSON encoding: one {@code TracesData} (or
 * {@code ExportTraceServiceRequest}) document, or JSON Lines of them as the file exporter writes.
 * It walks {@code resourceSpans[].scopeSpans[].spans[]} (also the legacy
 * {@code instrumentationLibrarySpans}) as a stream, keeps the spans that are attempts (see
 * {@link #attemptKind}) and hands them to {@link RetryLinker}. Unknown fields are skipped; the fields
 * used are checked strictly: hex ids, 64-bit times as strings or integers (never through a double),
 * enums as integers.
 */
public final class OtlpReader implements TraceReader {
    private static final int SPAN_KIND_SERVER = 2;
    private static final List<String> SPAN_KINDS = List.of("SPAN_KIND_UNSPECIFIED", "SPAN_KIND_INTERNAL",
            "SPAN_KIND_SERVER", "SPAN_KIND_CLIENT", "SPAN_KIND_PRODUCER", "SPAN_KIND_CONSUMER");
    private static final List<String> STATUS_CODES = List.of("STATUS_CODE_UNSET", "STATUS_CODE_OK",
            "STATUS_CODE_ERROR");
    private static final int STATUS_CODE_ERROR = 2;
    private static final BigInteger MAX_UINT64 = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    @Override
    public void read(ReadContext ctx) throws IOException, InputException {
        byte[] head = ctx.peek(1 << 16);
        boolean log = OtlpLogLines.isLog(head, head.length);
        JsonCursor c = log ? ctx.open(OtlpLogLines::blanking) : ctx.open();
        RetryLinker linker = new RetryLinker();
        SpanScratch scratch = new SpanScratch();
        int exports = 0;
        boolean multiline = false;
        long previousEnd = 0;
        JsonToken t;
        while ((t = c.next()) != null) {
            long startLine = c.line();
            long startColumn = c.column();
            if (exports > 0 && multiline) {
                throw c.error("$", "trailing content after the JSON document: an OTLP file holds one export, "
                        + "or one export a line (JSON Lines)");
            }
            if (exports > 0 && startLine <= previousEnd) {
                throw c.error("$", "a second JSON value on one line: JSON Lines hold one export a line");
            }
            if (t != JsonToken.START_OBJECT) {
                throw c.error("$", "expected an OTLP trace export (an object with resourceSpans), found "
                        + JsonCursor.describe(t));
            }
            readExport(c, ctx, linker, scratch, "", true);
            previousEnd = c.line();
            if (previousEnd != startLine) {
                if (exports > 0 || log) {
                    throw InputException.rejected(ctx.source(), startLine, startColumn, "$",
                            "an export in JSON Lines must fit on one line; this one spans several");
                }
                multiline = true;
            }
            exports++;
        }
        if (exports == 0) {
            throw InputException.rejected(ctx.source(), 1, 1, "$", log
                    ? "no OTLP export in this log: expected lines that hold an export (a JSON object), "
                            + "alone or after the prefix of a span exporter's log line"
                    : "empty input: expected an OTLP trace export");
        }
        linker.emit(ctx, exports == 1);
    }

    /**
     * Reads one export: a {@code TracesData} or {@code ExportTraceServiceRequest} ({@code resourceSpans}),
     * one bare {@code ResourceSpans} (its {@code scopeSpans}, as the logging exporter writes a line),
     * or, at the top, the Jaeger query API's {@code {"result": export}}.
     */
    private static void readExport(JsonCursor c, ReadContext ctx, RetryLinker linker, SpanScratch scratch, String pointer,
            boolean top) throws IOException, InputException {
        long line = c.line();
        long column = c.column();
        boolean fields = false;
        String shape = null;
        String client = null;
        scratch.resourceSpans.clear();
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            c.value();
            fields = true;
            if (name.equals("resource") && !c.isNull()) {
                client = OtlpResource.client(c, ctx);
                continue;
            }
            boolean spans = name.equals("resourceSpans") || name.equals("scopeSpans")
                    || name.equals("instrumentationLibrarySpans");
            if (!spans && !(top && name.equals("result"))) {
                c.skip();
                continue;
            }
            String kind = name.equals("instrumentationLibrarySpans") ? "scopeSpans" : name;
            if (shape != null && !shape.equals(kind)) {
                throw c.error(JsonPointers.toPath(pointer) + "." + name, "an export holds one of resourceSpans (an "
                        + "export), scopeSpans (one ResourceSpans) and result (a query response), not " + shape
                        + " and " + name);
            }
            shape = kind;
            if (c.isNull()) {
                continue;
            }
            if (name.equals("result")) {
                c.expectObject("the result of a query: an OTLP trace export");
                readExport(c, ctx, linker, scratch, pointer + "/result", false);
            } else if (name.equals("resourceSpans")) {
                c.expectArray("resourceSpans");
                for (int r = 0; c.next() != JsonToken.END_ARRAY; r++) {
                    readResource(c, ctx, linker, scratch, pointer + "/resourceSpans/" + r);
                }
            } else {
                readScopes(c, ctx, linker, scratch, pointer, name);
            }
        }
        if ("scopeSpans".equals(shape)) {
            resourceRead(scratch, client);
        }
        // An empty object is an empty export; an object of other fields is not a trace export at all.
        if (fields && shape == null) {
            throw InputException.rejected(ctx.source(), line, column, JsonPointers.toPath(pointer),
                    "missing required field resourceSpans: not an OTLP trace export");
        }
    }

    private static void readResource(JsonCursor c, ReadContext ctx, RetryLinker linker, SpanScratch scratch,
            String pointer) throws IOException, InputException {
        c.expectObject("a ResourceSpans");
        scratch.resourceSpans.clear();
        String client = null;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            c.value();
            if (name.equals("resource") && !c.isNull()) {
                client = OtlpResource.client(c, ctx);
                continue;
            }
            if (!(name.equals("scopeSpans") || name.equals("instrumentationLibrarySpans")) || c.isNull()) {
                c.skip();
                continue;
            }
            readScopes(c, ctx, linker, scratch, pointer, name);
        }
        resourceRead(scratch, client);
    }

    /** The resource may follow its spans, so they learn their client once the resource is read. */
    private static void resourceRead(SpanScratch scratch, String client) {
        for (ForeignSpan span : scratch.resourceSpans) {
            span.client = client;
        }
        scratch.resourceSpans.clear();
    }

    private static void readScopes(JsonCursor c, ReadContext ctx, RetryLinker linker, SpanScratch scratch,
            String pointer, String name) throws IOException, InputException {
        c.expectArray(name);
        for (int s = 0; c.next() != JsonToken.END_ARRAY; s++) {
            readScope(c, ctx, linker, scratch, pointer + "/" + name + "/" + s);
        }
    }

    private static void readScope(JsonCursor c, ReadContext ctx, RetryLinker linker, SpanScratch scratch,
            String pointer) throws IOException, InputException {
        c.expectObject("a ScopeSpans");
        long line = c.line();
        long column = c.column();
        String scope = null;
        int requests = 0;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            c.value();
            if ((name.equals("scope") || name.equals("instrumentationLibrary")) && !c.isNull()) {
                scope = OtlpResource.scopeName(c);
                continue;
            }
            if (!name.equals("spans") || c.isNull()) {
                c.skip();
                continue;
            }
            c.expectArray("spans");
            for (int i = 0; c.next() != JsonToken.END_ARRAY; i++) {
                scratch.reset(c, pointer, i);
                readSpan(c, scratch);
                ForeignSpan span = attempt(scratch, ctx);
                if (span != null) {
                    linker.add(span);
                    scratch.resourceSpans.add(span);
                    requests += span.kind == ForeignSpan.Kind.HTTP ? 1 : 0;
                }
            }
        }
        String blind = OtlpResource.oneSpanPerRequest(scope);
        if (blind != null && requests > 0) {
            ctx.note(line, column, "the export cannot show retries: " + blind + " (scope " + scope
                    + ") records one span over all sends of a request, so retries it made are not in the export");
        }
    }

    private static void readSpan(JsonCursor c, SpanScratch s) throws IOException, InputException {
        c.expectObject("a span");
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            c.value();
            switch (name) {
                case "traceId" -> id(c, s, 0);
                case "spanId" -> id(c, s, 1);
                case "parentSpanId" -> id(c, s, 2);
                case "name" -> s.name = c.optString();
                case "kind" -> s.spanKind = enumInt(c, SPAN_KINDS);
                case "startTimeUnixNano" -> nanos(c, s, 0);
                case "endTimeUnixNano" -> nanos(c, s, 1);
                case "status" -> s.statusCode = status(c);
                case "attributes" -> attributes(c, s);
                case "events" -> s.exception = ExceptionEvents.outcome(c, s);
                default -> c.skip();
            }
        }
    }

    private static void id(JsonCursor c, SpanScratch s, int which) throws IOException, InputException {
        s.ids[which] = c.optString();
        s.idPlaces[2 * which] = c.line();
        s.idPlaces[2 * which + 1] = c.column();
    }

    /**
     * An OTLP/JSON enum: an integer, or the value's name as protobuf's JSON mapping writes it
     * ({@code MessageToJson}, the Jaeger query API): {@code SPAN_KIND_CLIENT}, {@code STATUS_CODE_ERROR}.
     */
    private static int enumInt(JsonCursor c, List<String> names) throws IOException, InputException {
        if (c.token() == JsonToken.VALUE_STRING) {
            int v = names.indexOf(c.optString());
            if (v < 0) {
                throw c.error("expected one of " + String.join(", ", names) + " (or its number)");
            }
            return v;
        }
        Integer v = c.optInt(0, names.size() - 1);
        return v == null ? 0 : v;
    }

    /** A time in unsigned 64-bit nanoseconds, as a decimal string or an integer; 0 when absent. */
    private static void nanos(JsonCursor c, SpanScratch s, int which) throws IOException, InputException {
        s.nanoPlaces[2 * which] = c.line();
        s.nanoPlaces[2 * which + 1] = c.column();
        JsonToken t = c.token();
        if (t == JsonToken.VALUE_NULL) {
            s.nanos[which] = 0;
        } else if (t == JsonToken.VALUE_STRING) {
            String v = c.optString();
            if (v.isEmpty() || v.length() > 20 || !Decimal.isDigits(v, 0)) {
                throw c.error("expected a count of nanoseconds since the epoch as a decimal string");
            }
            try {
                s.nanos[which] = Long.parseUnsignedLong(v);
            } catch (NumberFormatException e) {
                throw c.error("out of range: a time is an unsigned 64-bit count of nanoseconds");
            }
        } else if (t == JsonToken.VALUE_NUMBER_INT) {
            JsonParser p = c.parser();
            BigInteger v = p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                    ? p.getBigIntegerValue() : BigInteger.valueOf(p.getLongValue());
            if (v.signum() < 0 || v.compareTo(MAX_UINT64) > 0) {
                throw c.error("out of range: a time is an unsigned 64-bit count of nanoseconds");
            }
            s.nanos[which] = v.longValue();
        } else {
            throw c.error("expected a count of nanoseconds (a decimal string or an integer), found "
                    + JsonCursor.describe(t));
        }
    }

    private static int status(JsonCursor c) throws IOException, InputException {
        if (c.isNull()) {
            return 0;
        }
        c.expectObject("a span status");
        int code = 0;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            c.value();
            if (name.equals("code")) {
                code = enumInt(c, STATUS_CODES);
            } else {
                c.skip();
            }
        }
        return code;
    }

    private static void attributes(JsonCursor c, SpanScratch s) throws IOException, InputException {
        if (c.isNull()) {
            return;
        }
        c.expectArray("the attributes");
        for (int index = 0; c.next() != JsonToken.END_ARRAY; index++) {
            c.expectObject("an attribute {\"key\": ..., \"value\": ...}");
            String key = null;
            OtlpAttribute.Match match = null;
            AnyValue early = null;
            while (c.next() == JsonToken.FIELD_NAME) {
                String name = c.parser().currentName();
                c.value();
                if (name.equals("key")) {
                    key = c.optString();
                    match = key == null ? null : OtlpAttribute.find(key);
                } else if (name.equals("value") && key == null) {
                    early = AnyValue.read(c, index);
                } else if (name.equals("value") && match != null && s.wants(match)) {
                    s.put(match, AnyValue.read(c, index));
                } else {
                    c.skip();
                }
            }
            if (early != null && match != null && s.wants(match)) {
                s.put(match, early);
            }
            if (key != null && OtlpAttribute.startsWithIgnoreCase(key, OtlpAttribute.REQUEST_HEADER_PREFIX)) {
                s.requestHeaders = true;
            }
        }
    }

    /**
     * The span as an attempt, or null when it is none: an attempt carries one of our explicit
     * attributes, or is a GenAI tool execution, or an HTTP request seen by anything but its server
     * (the server span of a request repeats what the client span records).
     */
    static ForeignSpan attempt(SpanScratch s, ReadContext ctx) throws InputException {
        ForeignSpan.Kind kind = attemptKind(s);
        if (kind == null) {
            return null;
        }
        ForeignSpan span = new ForeignSpan();
        span.kind = kind;
        span.order = s.order;
        span.line = s.line;
        span.column = s.column;
        span.scopePointer = s.scopePointer;
        span.index = s.index;
        StringPool strings = s.strings;
        span.traceId = strings.share(hexId(s, 0, "traceId", 32, ctx, true));
        span.spanId = hexId(s, 1, "spanId", 16, ctx, true);
        span.parentSpanId = strings.share(hexId(s, 2, "parentSpanId", 16, ctx, false));
        span.name = strings.share(s.name);
        span.server = s.spanKind == SPAN_KIND_SERVER;
        span.startNanos = s.nanos[0];
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
        span.toolCallId = emptyToNull(s.string(OtlpAttribute.TOOL_CALL_ID));
        span.requestHeaders = s.requestHeaders;

        Hop hop = span.hop;
        Long attemptId = s.integer(OtlpAttribute.ATTEMPT_ID, 1, Integer.MAX_VALUE);
        hop.attemptId = attemptId == null ? null : attemptId.intValue();
        Long resends = s.integer(OtlpAttribute.RESEND_COUNT, 0, Integer.MAX_VALUE - 1);
        hop.resendCount = resends == null ? null : resends.intValue();
        span.resendSource = resends == null ? null : "resend_count";
        if (resends == null) {
            hop.resendCount = Headers.retryCount(s.hint(OtlpAttribute.RETRY_COUNT_HEADER, ctx));
            span.resendSource = hop.resendCount == null ? null : Headers.RETRY_COUNT;
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
        hop.outcome = outcome(hop.status, s.hint(OtlpAttribute.ERROR_TYPE, ctx), s.statusCode, s.exception,
                kind == ForeignSpan.Kind.TOOL);
        hop.retryAfter = s.fieldValue(OtlpAttribute.RETRY_AFTER, true);
        if (hop.retryAfter == null) {
            hop.retryAfter = Headers.retryAfterFromMillis(s.hint(OtlpAttribute.RETRY_AFTER_MS, ctx));
        }
        hop.responseDate = s.fieldValue(OtlpAttribute.RESPONSE_DATE, false);
        hop.commitState = s.enumValue(OtlpAttribute.COMMIT_STATE, CommitState.class);
        hop.commitStateSource = s.enumValue(OtlpAttribute.COMMIT_STATE_SOURCE, CommitStateSource.class);
        hop.retryReason = s.string(OtlpAttribute.RETRY_REASON);
        hop.requestHash = s.string(OtlpAttribute.REQUEST_HASH);
        return span;
    }

    private static ForeignSpan.Kind attemptKind(SpanScratch s) throws InputException {
        if ("execute_tool".equals(s.string(OtlpAttribute.GEN_AI_OPERATION))) {
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
        boolean zero = id.chars().allMatch(ch -> ch == '0');
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
     * without a status).
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

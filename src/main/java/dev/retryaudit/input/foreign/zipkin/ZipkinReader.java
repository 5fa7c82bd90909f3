package dev.retryaudit.input.foreign.zipkin;

import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.input.foreign.AnyValue;
import dev.retryaudit.input.foreign.ForeignSpan;
import dev.retryaudit.input.foreign.OtlpAttribute;
import dev.retryaudit.input.foreign.RetryLinker;
import dev.retryaudit.input.foreign.SpanAttempts;
import dev.retryaudit.input.foreign.SpanScratch;
import dev.retryaudit.input.foreign.ZipkinJaegerFields;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.json.JsonPointers;
import dev.retryaudit.input.reader.LineDiscipline;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.input.reader.TraceReader;
import dev.retryaudit.model.internal.InputException;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Reads Zipkin v2 JSON: one array of spans (as the API's {@code /api/v2/trace} and the UI's
 * download write it), a single span, or JSON Lines of spans or of arrays. Each span's fields become
 * those of an OTLP span (ids left-padded to OTLP's lengths, microseconds to nanoseconds, {@code kind},
 * string tags read by the OTLP attribute names, {@code error} and {@code otel.status_code} as the
 * span status, {@code localEndpoint.serviceName} as the client) and join the spans of the source in
 * the one linking step of the foreign formats. Zipkin's own HTTP tags ({@code http.method},
 * {@code http.url}, {@code http.path}, {@code http.status_code}) are read; a client span with a
 * path but no method tag takes the method from its name ({@code get}), as Brave and Finagle name
 * spans. For a failed span, annotations hint at how it failed ({@link ZipkinAnnotations}). Unknown
 * fields are skipped; the fields used are checked strictly.
 */
public final class ZipkinReader implements TraceReader {
    /** Zipkin's kinds, in the order of OTLP's from SPAN_KIND_SERVER (2) on. */
    private static final List<String> KINDS = List.of("SERVER", "CLIENT", "PRODUCER", "CONSUMER");
    private static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS",
            "TRACE", "CONNECT");
    /** Below every OTLP key of these attributes: a path stands for the URL, the remote service for the host. */
    private static final OtlpAttribute.Match PATH = new OtlpAttribute.Match(OtlpAttribute.URL, 90, "http.path");
    private static final OtlpAttribute.Match NAME_METHOD = new OtlpAttribute.Match(OtlpAttribute.METHOD, 90, "name");
    /** A Zipkin {@code error} tag's value (a message or an exception) hints at the failure, below {@code error.type}. */
    private static final OtlpAttribute.Match ERROR = new OtlpAttribute.Match(OtlpAttribute.ERROR_TYPE, 90, "error");
    private static final OtlpAttribute.Match REMOTE =
            new OtlpAttribute.Match(OtlpAttribute.SERVER_ADDRESS, 90, "remoteEndpoint.serviceName");
    private static final int KIND_CLIENT = 3;
    private static final int STATUS_ERROR = 2;

    @Override
    public void read(ReadContext ctx) throws IOException, InputException {
        JsonCursor c = ctx.open();
        RetryLinker linker = new RetryLinker();
        SpanScratch scratch = scratch();
        LineDiscipline lines = new LineDiscipline(ctx.source(), "a Zipkin file holds one array of spans, or one "
                + "span (or array) a line", "JSON Lines hold one span (or array of spans) a line",
                "a record in JSON Lines must fit on one line; this one spans several", false);
        JsonToken t;
        while ((t = c.next()) != null) {
            lines.start(c);
            if (t == JsonToken.START_ARRAY) {
                for (int i = 0; c.next() != JsonToken.END_ARRAY; i++) {
                    if (c.token() == JsonToken.START_ARRAY) {
                        // A list of traces, as the query API's /api/v2/traces answers: each an array of spans.
                        for (int j = 0; c.next() != JsonToken.END_ARRAY; j++) {
                            readSpan(c, ctx, linker::add, scratch, "/" + i + "/" + j);
                        }
                    } else {
                        readSpan(c, ctx, linker::add, scratch, "/" + i);
                    }
                }
            } else if (t == JsonToken.START_OBJECT) {
                readSpan(c, ctx, linker::add, scratch, "");
            } else {
                throw c.error("$", "expected Zipkin v2 spans (an array of span objects, or a span), found "
                        + JsonCursor.describe(t));
            }
            lines.end(c);
        }
        if (lines.records() == 0) {
            throw InputException.rejected(ctx.source(), 1, 1, "$", "empty input: expected Zipkin v2 spans");
        }
        scratch.unused.note(ctx);
        linker.emit(ctx, lines.records() == 1);
    }

    /** A scratch for Zipkin spans: it names their ids as Zipkin does. */
    static SpanScratch scratch() {
        SpanScratch scratch = new SpanScratch();
        scratch.idNames = new String[] {"traceId", "id", "parentId"};
        return scratch;
    }

    /** Reads the span at the cursor into {@code s} and, when it is an attempt, hands it to {@code linker}. */
    static void readSpan(JsonCursor c, ReadContext ctx, Consumer<ForeignSpan> linker, SpanScratch s,
            String pointer) throws IOException, InputException {
        c.expectObject("a Zipkin span");
        s.reset(c, pointer, -1);
        String service = null;
        boolean hasMethod = false;
        boolean hasPath = false;
        long timestamp = -1;
        long duration = -1;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            c.valueOfCheckedField();
            switch (name) {
                case "traceId" -> ZipkinJaegerFields.id(c, s, 0, ZipkinJaegerFields.TRACE);
                case "id" -> ZipkinJaegerFields.id(c, s, 1, ZipkinJaegerFields.SPAN);
                case "parentId" -> ZipkinJaegerFields.id(c, s, 2, ZipkinJaegerFields.SPAN);
                case "name" -> s.name = c.optString();
                case "kind" -> s.spanKind = kind(c);
                case "timestamp" -> timestamp = ZipkinJaegerFields.micros(c);
                case "duration" -> duration = ZipkinJaegerFields.micros(c);
                case "localEndpoint" -> service = endpoint(c, null, s);
                case "remoteEndpoint" -> endpoint(c, REMOTE, s);
                case "annotations" -> s.exception = ZipkinAnnotations.outcome(c);
                case "tags" -> {
                    int found = tags(c, s);
                    hasMethod = (found & 1) != 0;
                    hasPath = (found & 2) != 0;
                }
                default -> c.skip();
            }
        }
        if (!hasMethod && hasPath && s.spanKind == KIND_CLIENT && s.name != null
                && METHODS.contains(s.name.toUpperCase(Locale.ROOT))) {
            s.attribute("name", NAME_METHOD, AnyValue.tag(AnyValue.Kind.TEXT, s.name.toUpperCase(Locale.ROOT), 0,
                    c, ".name"));
        }
        ZipkinJaegerFields.times(s, timestamp, duration);
        ZipkinJaegerFields.requireIds(s, ctx, "a Zipkin span");
        ForeignSpan span = SpanAttempts.attempt(s, ctx);
        if (span != null) {
            span.client = s.strings.share(service);
            linker.accept(span);
        }
    }


    private static int kind(JsonCursor c) throws IOException, InputException {
        String k = c.optString();
        if (k == null) {
            return 0;
        }
        int kind = KINDS.indexOf(k);
        if (kind < 0) {
            throw c.error("expected one of CLIENT, SERVER, PRODUCER, CONSUMER");
        }
        return kind + 2;
    }



    /** An endpoint's service name; the remote one stands for the server's host where no tag names it. */
    private static String endpoint(JsonCursor c, OtlpAttribute.Match as, SpanScratch s)
            throws IOException, InputException {
        if (c.isNull()) {
            return null;
        }
        c.expectObject("an endpoint");
        String service = null;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            c.valueOfCheckedField();
            if (!name.equals("serviceName")) {
                c.skip();
                continue;
            }
            service = c.optString();
            if (as != null && service != null && !service.isEmpty()) {
                s.attribute(as.key(), as, AnyValue.tag(AnyValue.Kind.TEXT, service, 0, c, "." + as.key()));
            }
        }
        return service == null || service.isEmpty() ? null : service;
    }

    /**
     * Reads the tags (a string each); returns bit 1 when a method tag was seen, bit 2 when a URL or
     * path was. {@code error} marks the span failed (its value, a message or exception, hints at the
     * failure), as does {@code otel.status_code} ERROR.
     */
    private static int tags(JsonCursor c, SpanScratch s) throws IOException, InputException {
        if (c.isNull()) {
            return 0;
        }
        c.expectObject("the tags (an object of strings)");
        int found = 0;
        while (c.next() == JsonToken.FIELD_NAME) {
            String key = c.parser().currentName();
            c.valueOfCheckedField();
            OtlpAttribute.Match m = switch (key) {
                case "error" -> ERROR;
                case "http.path" -> PATH;
                case "otel.status_code" -> null;
                default -> OtlpAttribute.find(key);
            };
            if (m == null && !key.equals("otel.status_code")) {
                s.attribute(key, null, null);
                c.skip();
                continue;
            }
            String place = ".tags" + JsonPointers.member(key);
            AnyValue v = c.token() == JsonToken.VALUE_STRING
                    ? AnyValue.tag(AnyValue.Kind.TEXT, ZipkinJaegerFields.headerText(key, c.optString()), 0, c, place)
                    : AnyValue.tag(AnyValue.Kind.INVALID, "a Zipkin tag is a string, found "
                            + JsonCursor.describe(c.token()), 0, c, place);
            c.skip();
            if (m == null) {
                s.statusCode = statusCode(v, s, s.statusCode);
                continue;
            }
            s.statusCode = m == ERROR ? STATUS_ERROR : s.statusCode;
            s.attribute(key, m, v);
            if (m.attribute() == OtlpAttribute.METHOD) {
                found |= 1;
            } else if (m.attribute() == OtlpAttribute.URL) {
                found |= 2;
            }
        }
        return found;
    }

    /** The span status that {@code otel.status_code} (OK or ERROR) names; an error stays an error. */
    private static int statusCode(AnyValue v, SpanScratch s, int held) throws InputException {
        String code = v.string("otel.status_code", s);
        return held == STATUS_ERROR ? held : "ERROR".equals(code) ? STATUS_ERROR : "OK".equals(code) ? 1 : held;
    }
}

package dev.retryaudit.input.foreign.otlp;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.input.foreign.AnyValue;
import dev.retryaudit.input.foreign.ForeignSpan;
import dev.retryaudit.input.foreign.OtlpAttribute;
import dev.retryaudit.input.foreign.ProtoNames;
import dev.retryaudit.input.foreign.RetryLinker;
import dev.retryaudit.input.foreign.SpanScratch;
import dev.retryaudit.json.Decimal;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.json.JsonPointers;
import dev.retryaudit.input.reader.LineDiscipline;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.input.reader.TraceReader;
import dev.retryaudit.model.internal.InputException;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads OpenTelemetry trace exports in the OTLP/JSON encoding: one {@code TracesData} (or
 * {@code ExportTraceServiceRequest}) document, or JSON Lines of them as the file exporter writes.
 * It walks {@code resourceSpans[].scopeSpans[].spans[]} (also the legacy
 * {@code instrumentationLibrarySpans}) as a stream, keeps the spans that are attempts (see
 * {@link #attemptKind}) and hands them to {@link RetryLinker}. Unknown fields are skipped; the fields
 * used are checked strictly: hex ids, 64-bit times as strings or integers (never through a double),
 * enums as integers. The collector file exporter's protobuf ({@code format: proto}) is read by
 * {@link OtlpProtobufReader}.
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
        if (OtlpProtobuf.isFramed(head, 0, head.length)) {
            new OtlpProtobufReader().read(ctx);
            return;
        }
        RetryLinker linker = new RetryLinker();
        long records = hold(ctx, linker, false);
        if (records == 0) {
            throw empty(ctx.source(), OtlpLogLines.isLog(head, head.length));
        }
        linker.emit(ctx, records == 1);
    }

    /**
     * Reads the OTLP/JSON exports of the context's source (or the span exporter's log of them) in one pass as
     * {@link #read} reads them, into {@code linker}, not yet linked: {@link RetryLinker#emit} links them, with
     * pointers when there was one export. Returns how many exports it read (none: the source holds none).
     * Throws the first error of reading. {@code linesOnly}: every export must fit on its line, as in a log,
     * even when it is the only one. The notes of reading go to the context, as {@link #read} makes them.
     */
    public static long hold(ReadContext ctx, RetryLinker linker, boolean linesOnly) throws IOException, InputException {
        byte[] head = ctx.peek(1 << 16);
        boolean log = OtlpLogLines.isLog(head, head.length);
        SpanScratch scratch = new SpanScratch();
        LineDiscipline lines = discipline(ctx.source(), log || linesOnly);
        JsonCursor c;
        if (log) {
            c = ctx.open(OtlpLogLines::blanking);
        } else {
            // JSON Lines of many exports are read on every core; one export, or what does not read so, in one pass.
            InputStream rest = OtlpChunks.read(ctx, linker::add, scratch, lines);
            c = rest == null ? null : ctx.open(in -> rest);
        }
        JsonToken t;
        while (c != null && (t = c.next()) != null) {
            lines.start(c);
            if (t != JsonToken.START_OBJECT) {
                throw c.error("$", "expected an OTLP trace export (an object with resourceSpans), found "
                        + JsonCursor.describe(t));
            }
            readExport(c, ctx, linker::add, scratch, "", true);
            lines.end(c);
        }
        if (lines.records() > 0) {
            scratch.unused.note(ctx);
        }
        return lines.records();
    }

    /** The line discipline of OTLP exports: one document, or one export a line ({@code linesOnly}: lines alone). */
    static LineDiscipline discipline(String source, boolean linesOnly) {
        return new LineDiscipline(source, "an OTLP file holds one export, or one export a line (JSON Lines)",
                "JSON Lines hold one export a line", "an export in JSON Lines must fit on one line; this one spans several",
                linesOnly);
    }

    /** The rejection of a source with no export: blank lines only, or a log with no line that holds one. */
    static InputException empty(String source, boolean log) {
        return InputException.rejected(source, 1, 1, "$", log
                ? "no OTLP export in this log: expected lines that hold an export (a JSON object), "
                        + "alone or after the prefix of a span exporter's log line"
                : "empty input: expected an OTLP trace export");
    }

    /**
     * Reads one export: a {@code TracesData} or {@code ExportTraceServiceRequest} ({@code resourceSpans}),
     * one bare {@code ResourceSpans} (its {@code scopeSpans}, as the logging exporter writes a line),
     * or, at the top, the Jaeger query API's {@code {"result": export}}.
     */
    static void readExport(JsonCursor c, ReadContext ctx, Consumer<ForeignSpan> linker, SpanScratch scratch, String pointer,
            boolean top) throws IOException, InputException {
        long line = c.line();
        long column = c.column();
        boolean fields = false;
        String shape = null;
        String client = null;
        scratch.resourceSpans.clear();
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = ProtoNames.field(c);
            c.valueOfCheckedField();
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
            resourceRead(scratch, client, linker);
        }
        // An empty object is an empty export; an object of other fields is not a trace export at all.
        if (fields && shape == null) {
            throw InputException.rejected(ctx.source(), line, column, JsonPointers.toPath(pointer),
                    "missing required field resourceSpans: not an OTLP trace export");
        }
    }

    private static void readResource(JsonCursor c, ReadContext ctx, Consumer<ForeignSpan> linker, SpanScratch scratch,
            String pointer) throws IOException, InputException {
        c.expectObject("a ResourceSpans");
        scratch.resourceSpans.clear();
        String client = null;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = ProtoNames.field(c);
            c.valueOfCheckedField();
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
        resourceRead(scratch, client, linker);
    }

    /**
     * The resource may follow its spans, so they learn their client once the resource is read, and only
     * then go to the linker: a root request is linked within its client.
     */
    static void resourceRead(SpanScratch scratch, String client, Consumer<ForeignSpan> linker) {
        for (ForeignSpan span : scratch.resourceSpans) {
            span.client = client;
            linker.accept(span);
        }
        scratch.resourceSpans.clear();
    }

    private static void readScopes(JsonCursor c, ReadContext ctx, Consumer<ForeignSpan> linker, SpanScratch scratch,
            String pointer, String name) throws IOException, InputException {
        c.expectArray(name);
        for (int s = 0; c.next() != JsonToken.END_ARRAY; s++) {
            readScope(c, ctx, linker, scratch, pointer + "/" + name + "/" + s);
        }
    }

    private static void readScope(JsonCursor c, ReadContext ctx, Consumer<ForeignSpan> linker, SpanScratch scratch,
            String pointer) throws IOException, InputException {
        c.expectObject("a ScopeSpans");
        long line = c.line();
        long column = c.column();
        String scope = null;
        ScopeTally tally = new ScopeTally();
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = ProtoNames.field(c);
            c.valueOfCheckedField();
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
                scratch.recordsEveryStatus = true;
                readSpan(c, scratch);
                tally.span(scratch, ctx);
            }
        }
        tally.end(ctx, line, column, scope);
    }

    private static void readSpan(JsonCursor c, SpanScratch s) throws IOException, InputException {
        c.expectObject("a span");
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = ProtoNames.field(c);
            c.valueOfCheckedField();
            switch (name) {
                case "traceId" -> id(c, s, 0);
                case "spanId" -> id(c, s, 1);
                case "parentSpanId" -> id(c, s, 2);
                case "name" -> s.name = c.optSharedString();
                case "kind" -> s.spanKind = enumInt(c, SPAN_KINDS);
                case "startTimeUnixNano" -> nanos(c, s, 0);
                case "endTimeUnixNano" -> nanos(c, s, 1);
                case "status" -> s.statusCode = status(c, s);
                case "attributes" -> attributes(c, s);
                case "events" -> s.exception = ExceptionEvents.outcome(c, s);
                default -> c.skip();
            }
        }
    }

    private static void id(JsonCursor c, SpanScratch s, int which) throws IOException, InputException {
        // Trace and parent ids come again in the spans of one trace; a span's own id does not.
        s.ids[which] = which == 1 ? c.optString() : c.optSharedString();
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
        } else if (t == JsonToken.VALUE_STRING && shortDigits(c)) {
            s.nanos[which] = digits(c.parser());
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

    /**
     * Whether the current string is 1 to 19 ASCII digits within the string limit: a count that no
     * unsigned 64-bit number is too small for, read from the parser's characters without a string.
     */
    private static boolean shortDigits(JsonCursor c) throws IOException {
        JsonParser p = c.parser();
        int n = p.getTextLength();
        if (n == 0 || n > 19 || n > c.limits().stringLength()) {
            return false;
        }
        char[] text = p.getTextCharacters();
        for (int i = p.getTextOffset(), end = i + n; i < end; i++) {
            if (text[i] < '0' || text[i] > '9') {
                return false;
            }
        }
        return true;
    }

    /** The value of the digits {@link #shortDigits} accepted, as an unsigned 64-bit number. */
    private static long digits(JsonParser p) throws IOException {
        char[] text = p.getTextCharacters();
        long v = 0;
        for (int i = p.getTextOffset(), end = i + p.getTextLength(); i < end; i++) {
            v = 10 * v + (text[i] - '0');
        }
        return v;
    }

    private static int status(JsonCursor c, SpanScratch s) throws IOException, InputException {
        if (c.isNull()) {
            return 0;
        }
        c.expectObject("a span status");
        int code = 0;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = ProtoNames.field(c);
            c.valueOfCheckedField();
            if (name.equals("code")) {
                code = enumInt(c, STATUS_CODES);
            } else if (name.equals("message") && c.token() == JsonToken.VALUE_STRING) {
                s.statusMessage = c.optString();
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
            AnyValue value = null;
            while (c.next() == JsonToken.FIELD_NAME) {
                String name = ProtoNames.field(c);
                c.valueOfCheckedField();
                if (name.equals("key")) {
                    key = c.optSharedString();
                    match = key == null ? null : OtlpAttribute.find(key);
                } else if (name.equals("value") && (key == null || match != null && s.wants(match))) {
                    // A value before its key is kept until the key says whether it is used.
                    value = AnyValue.read(c, index);
                } else {
                    c.skip();
                }
            }
            if (key != null) {
                s.attribute(key, match, value);
            }
        }
    }
}

package dev.retryaudit.input.foreign.jaeger;

import com.fasterxml.jackson.core.JsonToken;
import dev.retryaudit.input.foreign.AnyValue;
import dev.retryaudit.input.foreign.ForeignSpan;
import dev.retryaudit.input.foreign.OtlpAttribute;
import dev.retryaudit.input.foreign.RetryLinker;
import dev.retryaudit.input.foreign.SpanAttempts;
import dev.retryaudit.input.foreign.SpanScratch;
import dev.retryaudit.input.foreign.ZipkinJaegerFields;
import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.input.reader.Drafts;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.input.reader.TraceReader;
import dev.retryaudit.model.internal.InputException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads Jaeger JSON as the query API v1 and the UI write it: {@code {"data": [trace, ...]}}, one
 * bare trace {@code {"traceID", "spans", "processes"}}, or an array of traces or of spans that carry
 * their {@code process}. Each span's fields become those of an OTLP span (ids left-padded to OTLP's
 * lengths, microseconds to nanoseconds, the parent from the first {@code CHILD_OF} reference in the
 * trace, else the first {@code FOLLOWS_FROM}; typed tags read by the OTLP attribute names,
 * {@code span.kind} as the kind, {@code error} and {@code otel.status_code} as the span status, the
 * process's {@code serviceName} as the client) and join the spans of the source in the one linking
 * step of the foreign formats. Unknown fields are skipped; the fields used are checked strictly.
 */
public final class JaegerReader implements TraceReader {
    private static final List<String> KINDS = List.of("unspecified", "internal", "server", "client", "producer",
            "consumer");
    private static final int STATUS_ERROR = 2;
    private static final Set<String> SPECIAL_TAGS = Set.of("span.kind", "error", "otel.status_code");

    /** The state of one read: its context, the linking step and the span scratch. */
    private static final class Read {
        final ReadContext ctx;
        final RetryLinker linker = new RetryLinker();
        final SpanScratch scratch = new SpanScratch();

        Read(ReadContext ctx) {
            this.ctx = ctx;
            scratch.idNames = new String[] {"traceID", "spanID", "references"};
        }
    }

    /** An attempt that names its process by id, with where the id stands. */
    private record Pending(ForeignSpan span, String processId, long line, long column, String path) {
    }

    @Override
    public void read(ReadContext ctx) throws IOException, InputException {
        JsonCursor c = ctx.open();
        Read r = new Read(ctx);
        JsonToken t = c.next();
        if (t == null) {
            throw InputException.rejected(ctx.source(), 1, 1, "$", "empty input: expected Jaeger JSON");
        }
        if (t == JsonToken.START_ARRAY) {
            for (int i = 0; c.next() != JsonToken.END_ARRAY; i++) {
                element(c, r, "/" + i);
            }
        } else if (t == JsonToken.START_OBJECT) {
            document(c, r);
        } else {
            throw c.error("$", "expected Jaeger JSON ({\"data\": [traces]}, a trace, or an array of traces or spans), "
                    + "found " + JsonCursor.describe(t));
        }
        if (c.next() != null) {
            throw c.error("$", "trailing content after the JSON document");
        }
        r.scratch.unused.note(ctx);
        r.linker.emit(ctx, true);
    }

    /** The top object: {@code {"data": [...]}} of the query API, or one trace. */
    private static void document(JsonCursor c, Read r) throws IOException, InputException {
        long line = c.line();
        long column = c.column();
        Trace trace = new Trace("");
        boolean data = false;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            c.valueOfCheckedField();
            if (name.equals("data")) {
                data = true;
                if (c.isNull()) {
                    continue;
                }
                c.expectArray("the traces (data)");
                for (int i = 0; c.next() != JsonToken.END_ARRAY; i++) {
                    c.expectObject("a Jaeger trace");
                    readTrace(c, r, "/data/" + i);
                }
            } else if (!trace.field(name, c, r)) {
                c.skip();
            }
        }
        if (data && trace.seen) {
            throw InputException.rejected(r.ctx.source(), line, column, "$",
                    "a Jaeger document holds data (the query API's traces) or is one trace, not both");
        }
        if (!data && !trace.seen) {
            throw InputException.rejected(r.ctx.source(), line, column, "$",
                    "missing required field data (or spans): not Jaeger JSON");
        }
        trace.finish(r);
    }

    /**
     * An element of a top-level array: a trace (with spans) or a span (with its process). A trace may
     * carry fields that a span has too (the UI adds its start time and duration): with spans, it is a trace.
     */
    private static void element(JsonCursor c, Read r, String pointer) throws IOException, InputException {
        c.expectObject("a Jaeger trace or span");
        r.scratch.reset(c, pointer, -1);
        Trace trace = new Trace(pointer);
        SpanFields span = new SpanFields();
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            c.valueOfCheckedField();
            if (!trace.field(name, c, r) && !span.field(name, c, r.scratch)) {
                c.skip();
            }
        }
        if (trace.seen) {
            trace.finish(r);
        } else {
            span.finish(r, null);
        }
    }

    private static void readTrace(JsonCursor c, Read r, String pointer) throws IOException, InputException {
        Trace trace = new Trace(pointer);
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            c.valueOfCheckedField();
            if (!trace.field(name, c, r)) {
                c.skip();
            }
        }
        if (!trace.seen) {
            throw Drafts.missing(r.ctx.location(c, pointer), "spans");
        }
        trace.finish(r);
    }

    /** One trace: its spans, read as they come, and its processes, which may stand before or after them. */
    private static final class Trace {
        final String pointer;
        final Map<String, String> processes = new HashMap<>();
        final List<Pending> pending = new ArrayList<>();
        boolean seen;

        Trace(String pointer) {
            this.pointer = pointer;
        }

        /** Reads field {@code name} if it is a trace's; false when it is not. */
        boolean field(String name, JsonCursor c, Read r) throws IOException, InputException {
            switch (name) {
                case "spans" -> {
                    seen = true;
                    if (c.isNull()) {
                        return true;
                    }
                    c.expectArray("the spans");
                    for (int i = 0; c.next() != JsonToken.END_ARRAY; i++) {
                        c.expectObject("a Jaeger span");
                        r.scratch.reset(c, pointer, i);
                        SpanFields span = new SpanFields();
                        while (c.next() == JsonToken.FIELD_NAME) {
                            String field = c.parser().currentName();
                            c.valueOfCheckedField();
                            if (!span.field(field, c, r.scratch)) {
                                c.skip();
                            }
                        }
                        span.finish(r, this);
                    }
                }
                case "processes" -> {
                    if (c.isNull()) {
                        return true;
                    }
                    c.expectObject("the processes (an object of processes by id)");
                    while (c.next() == JsonToken.FIELD_NAME) {
                        String id = c.parser().currentName();
                        c.valueOfCheckedField();
                        processes.put(id, process(c));
                    }
                }
                default -> {
                    return false;
                }
            }
            return true;
        }

        /** Hands the trace's attempts on, each with the service of its process. */
        void finish(Read r) throws InputException {
            for (Pending p : pending) {
                if (!processes.containsKey(p.processId())) {
                    throw InputException.rejected(r.ctx.source(), p.line(), p.column(), p.path(),
                            "processID names no process of this trace");
                }
                p.span().client = r.scratch.strings.share(processes.get(p.processId()));
                r.linker.add(p.span());
            }
            pending.clear();
        }
    }

    /** A process's service name, or null. */
    private static String process(JsonCursor c) throws IOException, InputException {
        if (c.isNull()) {
            return null;
        }
        c.expectObject("a process");
        String service = null;
        while (c.next() == JsonToken.FIELD_NAME) {
            String name = c.parser().currentName();
            c.valueOfCheckedField();
            if (name.equals("serviceName")) {
                service = c.optString();
            } else {
                c.skip();
            }
        }
        return service == null || service.isEmpty() ? null : service;
    }

    /** A reference to another span, with where its span id stands. */
    private record Reference(boolean childOf, String trace, String span, long line, long column) {
    }

    /** The fields of one span beyond what the scratch holds: times, references, the process. */
    private static final class SpanFields {
        final List<Reference> references = new ArrayList<>(1);
        String traceId;
        long start = -1;
        long duration = -1;
        String processId;
        long processLine;
        long processColumn;
        String processPath;
        String service;
        boolean process;

        /** Reads field {@code name} of a span into the scratch or here; false when the span has no such field. */
        boolean field(String name, JsonCursor c, SpanScratch s) throws IOException, InputException {
            switch (name) {
                case "traceID" -> traceId = ZipkinJaegerFields.id(c, s, 0, ZipkinJaegerFields.TRACE);
                case "spanID" -> ZipkinJaegerFields.id(c, s, 1, ZipkinJaegerFields.SPAN);
                case "parentSpanID" -> {
                    String parent = ZipkinJaegerFields.id(c, ZipkinJaegerFields.SPAN);
                    if (parent != null) {
                        references.add(new Reference(true, null, parent, c.line(), c.column()));
                    }
                }
                case "operationName" -> s.name = c.optString();
                case "references" -> references(c);
                case "startTime" -> start = ZipkinJaegerFields.micros(c);
                case "duration" -> duration = ZipkinJaegerFields.micros(c);
                case "tags" -> tags(c, s);
                case "logs" -> s.exception = JaegerLogs.outcome(c);
                case "processID" -> {
                    processId = c.optString();
                    processLine = c.line();
                    processColumn = c.column();
                    processPath = c.path();
                }
                case "process" -> {
                    process = true;
                    service = process(c);
                }
                default -> {
                    return false;
                }
            }
            return true;
        }

        private void references(JsonCursor c) throws IOException, InputException {
            if (c.isNull()) {
                return;
            }
            c.expectArray("the references");
            while (c.next() != JsonToken.END_ARRAY) {
                c.expectObject("a reference");
                boolean childOf = false;
                String trace = null;
                String span = null;
                long line = 0;
                long column = 0;
                while (c.next() == JsonToken.FIELD_NAME) {
                    String name = c.parser().currentName();
                    c.valueOfCheckedField();
                    switch (name) {
                        case "refType" -> {
                            String type = c.optString();
                            if (type != null && !type.equals("CHILD_OF") && !type.equals("FOLLOWS_FROM")) {
                                throw c.error("expected CHILD_OF or FOLLOWS_FROM");
                            }
                            childOf = "CHILD_OF".equals(type);
                        }
                        case "traceID" -> trace = ZipkinJaegerFields.id(c, ZipkinJaegerFields.TRACE);
                        case "spanID" -> {
                            span = ZipkinJaegerFields.id(c, ZipkinJaegerFields.SPAN);
                            line = c.line();
                            column = c.column();
                        }
                        default -> c.skip();
                    }
                }
                if (span != null) {
                    references.add(new Reference(childOf, trace, span, line, column));
                }
            }
        }

        /** The parent: the first CHILD_OF reference within the span's trace, else the first FOLLOWS_FROM there. */
        private Reference parent() {
            Reference follows = null;
            for (Reference r : references) {
                if (r.trace() == null || r.trace().equals(traceId)) {
                    if (r.childOf()) {
                        return r;
                    }
                    follows = follows != null ? follows : r;
                }
            }
            return follows;
        }

        /** Hands the span on, if it is an attempt: to the linking step, or to its trace to wait for its process. */
        void finish(Read r, Trace trace) throws InputException {
            SpanScratch s = r.scratch;
            Reference parent = parent();
            if (parent != null) {
                s.ids[2] = parent.span();
                s.idPlaces[4] = parent.line();
                s.idPlaces[5] = parent.column();
            }
            ZipkinJaegerFields.times(s, start, duration);
            ZipkinJaegerFields.requireIds(s, r.ctx, "a Jaeger span");
            ForeignSpan span = SpanAttempts.attempt(s, r.ctx);
            if (span == null) {
                return;
            }
            if (process || trace == null || processId == null) {
                span.client = s.strings.share(service);
                r.linker.add(span);
            } else {
                trace.pending.add(new Pending(span, processId, processLine, processColumn, processPath));
            }
        }
    }




    /**
     * Reads the typed tags {@code [{"key", "type", "value"}]}: {@code span.kind} sets the kind,
     * {@code error} (true) and {@code otel.status_code} (ERROR, OK) the span status; the others are
     * attributes by their OTLP names. A value that does not match its {@code type} is refused only
     * where the audit uses the tag.
     */
    private static void tags(JsonCursor c, SpanScratch s) throws IOException, InputException {
        if (c.isNull()) {
            return;
        }
        c.expectArray("the tags");
        for (int i = 0; c.next() != JsonToken.END_ARRAY; i++) {
            c.expectObject("a tag {\"key\": ..., \"type\": ..., \"value\": ...}");
            String key = null;
            String type = null;
            JaegerTag raw = null;
            while (c.next() == JsonToken.FIELD_NAME) {
                String name = c.parser().currentName();
                c.valueOfCheckedField();
                switch (name) {
                    case "key" -> key = c.optString();
                    case "type" -> type = c.optString();
                    case "value" -> {
                        if (key != null && OtlpAttribute.find(key) == null && !SPECIAL_TAGS.contains(key)) {
                            c.skip();
                        } else {
                            raw = JaegerTag.read(c);
                        }
                    }
                    default -> c.skip();
                }
            }
            OtlpAttribute.Match match = key == null ? null : OtlpAttribute.find(key);
            if (key == null || match == null && !SPECIAL_TAGS.contains(key)) {
                s.attribute(key == null ? "" : key, null, null);
                continue;
            }
            if (raw == null) {
                continue;
            }
            String tagKey = key;
            AnyValue value = raw.value(type, ".tags[" + i + "].value", text -> ZipkinJaegerFields.headerText(tagKey, text));
            switch (key) {
                case "span.kind" -> {
                    String kind = value.string(key, s);
                    int k = kind == null ? 0 : KINDS.indexOf(kind);
                    if (k < 0) {
                        throw value.error("tag span.kind: expected one of " + String.join(", ", KINDS), s);
                    }
                    s.spanKind = k;
                }
                case "error" -> s.statusCode = raw.isTrue() ? STATUS_ERROR : s.statusCode;
                case "otel.status_code" -> {
                    String code = value.string(key, s);
                    s.statusCode = s.statusCode == STATUS_ERROR || "ERROR".equals(code) ? STATUS_ERROR
                            : "OK".equals(code) ? 1 : s.statusCode;
                }
                default -> s.attribute(key, match, value);
            }
        }
    }
}

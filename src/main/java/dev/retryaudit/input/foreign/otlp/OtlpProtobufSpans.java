package dev.retryaudit.input.foreign.otlp;

import dev.retryaudit.input.foreign.AnyValue;
import dev.retryaudit.input.foreign.ForeignSpan;
import dev.retryaudit.input.foreign.OtlpAttribute;
import dev.retryaudit.input.foreign.SpanScratch;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.json.JsonPointers;
import dev.retryaudit.model.Limit;
import dev.retryaudit.model.Outcome;
import dev.retryaudit.model.internal.InputException;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * The spans of an OTLP export in protobuf, read from the wire into the scratch of the OTLP/JSON reader
 * ({@link SpanScratch}) field by field, with no message object made, so that they become attempts where every
 * format's spans do ({@link ScopeTally}, {@link dev.retryaudit.input.foreign.SpanAttempts}), with the checks,
 * messages and paths of the same spans in OTLP/JSON ({@code $.resourceSpans[0].scopeSpans[0].spans[3].kind}):
 * ids become lower-case hex, and only the attributes the audit uses are taken. The bytes are those
 * {@link OtlpProtobuf#decode} gave, in the common form ({@link OtlpWireCheck}): each singular field once, in any
 * order. Each message's fields are taken in the order of the definitions (a span's ids, name, kind, times,
 * attributes, events, status), so that the first problem found is the one OTLP/JSON would name. Everything is
 * placed at line 1, column 1, for the caller to place at its record.
 */
final class OtlpProtobufSpans {
    private static final int SPAN_KINDS = 6;
    private static final int STATUS_CODES = 3;
    private static final byte[] HEX_DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    /** Where a field stood in its message: none. */
    private static final int ABSENT = -1;
    /** The tags of an AnyValue's values. */
    private static final int STRING_VALUE = io.opentelemetry.proto.common.v1.AnyValue.STRING_VALUE_FIELD_NUMBER << 3 | ProtobufWire.LENGTH_DELIMITED;
    private static final int BOOL_VALUE = io.opentelemetry.proto.common.v1.AnyValue.BOOL_VALUE_FIELD_NUMBER << 3 | ProtobufWire.VARINT;
    private static final int INT_VALUE = io.opentelemetry.proto.common.v1.AnyValue.INT_VALUE_FIELD_NUMBER << 3 | ProtobufWire.VARINT;
    private static final int DOUBLE_VALUE = io.opentelemetry.proto.common.v1.AnyValue.DOUBLE_VALUE_FIELD_NUMBER << 3 | ProtobufWire.FIXED64;
    private static final int ARRAY_VALUE = io.opentelemetry.proto.common.v1.AnyValue.ARRAY_VALUE_FIELD_NUMBER << 3 | ProtobufWire.LENGTH_DELIMITED;
    private static final int KVLIST_VALUE = io.opentelemetry.proto.common.v1.AnyValue.KVLIST_VALUE_FIELD_NUMBER << 3 | ProtobufWire.LENGTH_DELIMITED;
    private static final int BYTES_VALUE = io.opentelemetry.proto.common.v1.AnyValue.BYTES_VALUE_FIELD_NUMBER << 3 | ProtobufWire.LENGTH_DELIMITED;
    private static final int STRING_VALUE_STRINDEX = io.opentelemetry.proto.common.v1.AnyValue.STRING_VALUE_STRINDEX_FIELD_NUMBER << 3 | ProtobufWire.VARINT;

    private final ReadContext ctx;
    private final SpanScratch scratch;
    private final Consumer<ForeignSpan> linker;
    private final byte[] bytes;
    /**
     * The start (after its tag) and end of each singular field of the message being read, by its tag (field number
     * and wire type, so that a field of another wire type, an unknown field to protobuf, is not taken for it); ABSENT
     * when it has none.
     */
    private final int[] starts = new int[len(Span.STATUS_FIELD_NUMBER) + 1];
    private final int[] ends = new int[starts.length];

    private OtlpProtobufSpans(ReadContext ctx, SpanScratch scratch, Consumer<ForeignSpan> linker, byte[] bytes) {
        this.ctx = ctx;
        this.scratch = scratch;
        this.linker = linker;
        this.bytes = bytes;
    }

    /** Reads the attempt spans of the export {@code message} holds into {@code linker}, each resource's once its client is known. */
    static void read(byte[] message, ReadContext ctx, SpanScratch scratch, Consumer<ForeignSpan> linker)
            throws InputException {
        OtlpProtobufSpans read = new OtlpProtobufSpans(ctx, scratch, linker, message);
        read.each(0, message.length, ExportTraceServiceRequest.RESOURCE_SPANS_FIELD_NUMBER,
                (r, from, to) -> read.resource(from, to, "/resourceSpans/" + r));
    }

    /** What is done with an occurrence of a repeated field: its index among them, and where its value stands. */
    @FunctionalInterface
    private interface Each {
        void at(int index, int from, int to) throws InputException;
    }

    /**
     * Calls {@code each} with every occurrence of length-delimited field {@code number} of the message from
     * {@code from} to {@code to}, in order.
     */
    private void each(int from, int to, int number, Each each) throws InputException {
        int wanted = len(number);
        ProtobufWire w = new ProtobufWire(bytes, from, to - from);
        int index = 0;
        while (w.more()) {
            int tag = w.tag();
            if (tag != wanted) {
                w.skipField(tag);
                continue;
            }
            int length = w.length();
            each.at(index++, w.pos, w.pos + length);
            w.pos += length;
        }
    }

    /** The fields of the message from {@code from} to {@code to}, by tag (those past the array: none). */
    private void fields(int from, int to) {
        Arrays.fill(starts, ABSENT);
        ProtobufWire w = new ProtobufWire(bytes, from, to - from);
        while (w.more()) {
            int tag = w.tag();
            int start = w.pos;
            w.skipField(tag);
            if (tag < starts.length) {
                starts[tag] = start;
                ends[tag] = w.pos;
            }
        }
    }

    /** The tag of length-delimited field {@code number}. */
    private static int len(int number) {
        return ProtobufWire.tag(number, ProtobufWire.LENGTH_DELIMITED);
    }

    private void resource(int from, int to, String pointer) throws InputException {
        scratch.resourceSpans.clear();
        each(from, to, ResourceSpans.SCOPE_SPANS_FIELD_NUMBER,
                (s, start, end) -> scope(start, end, pointer + "/scopeSpans/" + s));
        fields(from, to);
        String client = null;
        if (starts[len(ResourceSpans.RESOURCE_FIELD_NUMBER)] != ABSENT) {
            OtlpResource.Client c = new OtlpResource.Client();
            ProtobufWire resource = inside(ResourceSpans.RESOURCE_FIELD_NUMBER);
            each(resource.pos, resource.end, Resource.ATTRIBUTES_FIELD_NUMBER, (a, start, end) -> {
                KeyValueAt kv = keyValue(start, end);
                if (OtlpResource.Client.names(kv.key)) {
                    c.attribute(kv.key, value(kv, a, pointer + "/resource"));
                }
            });
            client = c.name();
        }
        OtlpReader.resourceRead(scratch, client, linker);
    }

    private void scope(int from, int to, String pointer) throws InputException {
        fields(from, to);
        String scope = null;
        if (starts[len(ScopeSpans.SCOPE_FIELD_NUMBER)] != ABSENT) {
            scope = "";
            ProtobufWire w = inside(ScopeSpans.SCOPE_FIELD_NUMBER);
            while (w.more()) {
                int tag = w.tag();
                if (tag == len(InstrumentationScope.NAME_FIELD_NUMBER)) {
                    scope = w.string(w.length());
                } else {
                    w.skipField(tag);
                }
            }
            scope = string(scope, pointer, "/scope/name");
        }
        ScopeTally tally = new ScopeTally();
        each(from, to, ScopeSpans.SPANS_FIELD_NUMBER, (i, start, end) -> {
            scratch.reset(1, 1, pointer, i);
            scratch.recordsEveryStatus = true;
            span(start, end);
            tally.span(scratch, ctx);
        });
        tally.end(ctx, 1, 1, scope);
    }

    /**
     * A cursor over the value of singular length-delimited field {@code number} of the message last taken apart by
     * {@link #fields}.
     */
    private ProtobufWire inside(int number) {
        int tag = len(number);
        ProtobufWire w = new ProtobufWire(bytes, starts[tag], ends[tag] - starts[tag]);
        int length = w.length();
        return new ProtobufWire(bytes, w.pos, length);
    }

    private void span(int from, int to) throws InputException {
        SpanScratch s = scratch;
        fields(from, to);
        s.ids[0] = id(Span.TRACE_ID_FIELD_NUMBER, "traceId", true);
        s.ids[1] = id(Span.SPAN_ID_FIELD_NUMBER, "spanId", false);
        s.ids[2] = id(Span.PARENT_SPAN_ID_FIELD_NUMBER, "parentSpanId", true);
        Arrays.fill(s.idPlaces, 1);
        Arrays.fill(s.nanoPlaces, 1);
        String name = starts[len(Span.NAME_FIELD_NUMBER)] == ABSENT ? "" : inside(Span.NAME_FIELD_NUMBER).rest();
        if (!fits(name)) {
            throw tooLong(name, s.pointer() + "/name");
        }
        s.name = s.strings.share(name);
        s.spanKind = enumValue((int) number(Span.KIND_FIELD_NUMBER), SPAN_KINDS, "/kind");
        s.nanos[0] = fixed64(Span.START_TIME_UNIX_NANO_FIELD_NUMBER);
        s.nanos[1] = fixed64(Span.END_TIME_UNIX_NANO_FIELD_NUMBER);
        ProtobufWire status = starts[len(Span.STATUS_FIELD_NUMBER)] == ABSENT ? null : inside(Span.STATUS_FIELD_NUMBER);
        boolean events = starts[len(Span.EVENTS_FIELD_NUMBER)] != ABSENT;
        each(from, to, Span.ATTRIBUTES_FIELD_NUMBER, (a, start, end) -> {
            KeyValueAt kv = keyValue(start, end);
            if (!fits(kv.key)) {
                throw tooLong(kv.key, s.pointer() + "/attributes/" + a + "/key");
            }
            OtlpAttribute.Match match = OtlpAttribute.find(kv.key);
            // The span's pointer is made only for an error: null stands for it.
            s.attribute(kv.key, match, match != null && s.wants(match) ? value(kv, a, null) : null);
        });
        if (events) {
            s.exception = events(from, to);
        }
        if (status != null) {
            int code = 0;
            String message = "";
            while (status.more()) {
                int tag = status.tag();
                if (tag == ProtobufWire.tag(Status.CODE_FIELD_NUMBER, ProtobufWire.VARINT)) {
                    code = (int) status.varint();
                } else if (tag == len(Status.MESSAGE_FIELD_NUMBER)) {
                    message = status.string(status.length());
                } else {
                    status.skipField(tag);
                }
            }
            s.statusCode = enumValue(code, STATUS_CODES, "/status/code");
            if (!message.isEmpty()) {
                s.statusMessage = string(message, s.pointer(), "/status/message");
            }
        }
    }

    /** The exception events of the span from {@code from} to {@code to}, in order: the outcome the first gives. */
    private Outcome events(int from, int to) throws InputException {
        Outcome[] found = {null};
        each(from, to, Span.EVENTS_FIELD_NUMBER, (e, start, end) -> {
            Outcome o = event(start, end, scratch.pointer() + "/events/" + e);
            found[0] = found[0] != null ? found[0] : o;
        });
        return found[0];
    }

    private Outcome event(int from, int to, String at) throws InputException {
        ExceptionEvents.Event taken = new ExceptionEvents.Event();
        String name = "";
        ProtobufWire w = new ProtobufWire(bytes, from, to - from);
        while (w.more()) {
            int tag = w.tag();
            if (tag == len(Span.Event.NAME_FIELD_NUMBER)) {
                name = w.string(w.length());
            } else if (tag == ProtobufWire.tag(Span.Event.TIME_UNIX_NANO_FIELD_NUMBER, ProtobufWire.FIXED64)) {
                taken.time = w.fixed64();
            } else {
                w.skipField(tag);
            }
        }
        taken.name(string(name, at, "/name"));
        each(from, to, Span.Event.ATTRIBUTES_FIELD_NUMBER, (a, start, end) -> {
            KeyValueAt kv = keyValue(start, end);
            if (ExceptionEvents.Event.reads(kv.key)) {
                taken.attribute(kv.key, value(kv, a, at), scratch);
            }
        });
        return taken.end(scratch);
    }

    /** An attribute's key and where its value stands (ABSENT: it has none). */
    private record KeyValueAt(String key, int value, int valueEnd) {
    }

    private KeyValueAt keyValue(int from, int to) {
        String key = "";
        int value = ABSENT;
        int valueEnd = 0;
        ProtobufWire w = new ProtobufWire(bytes, from, to - from);
        while (w.more()) {
            int tag = w.tag();
            if (tag == len(KeyValue.KEY_FIELD_NUMBER)) {
                key = w.string(w.length());
            } else if (tag == len(KeyValue.VALUE_FIELD_NUMBER)) {
                int length = w.length();
                value = w.pos;
                valueEnd = w.pos + length;
                w.pos += length;
            } else {
                w.skipField(tag);
            }
        }
        return new KeyValueAt(key, value, valueEnd);
    }

    /** The value of singular varint field {@code number} of the message last taken apart, 0 when it has none. */
    private long number(int number) {
        int tag = ProtobufWire.tag(number, ProtobufWire.VARINT);
        return starts[tag] == ABSENT ? 0 : new ProtobufWire(bytes, starts[tag], ends[tag] - starts[tag]).varint();
    }

    /** The value of singular fixed64 field {@code number} of the message last taken apart, 0 when it has none. */
    private long fixed64(int number) {
        int tag = ProtobufWire.tag(number, ProtobufWire.FIXED64);
        return starts[tag] == ABSENT ? 0 : new ProtobufWire(bytes, starts[tag], ends[tag] - starts[tag]).fixed64();
    }

    /**
     * An id as OTLP/JSON writes it, lower-case hex, of bytes field {@code number} of the span; null when empty, as
     * an unset field is.
     */
    private String id(int number, String field, boolean shared) throws InputException {
        if (starts[len(number)] == ABSENT) {
            return null;
        }
        ProtobufWire w = inside(number);
        if (!w.more()) {
            return null;
        }
        String hex = hex(bytes, w.pos, w.end - w.pos);
        if (!fits(hex)) {
            throw tooLong(hex, scratch.pointer() + "/" + field);
        }
        // Trace and parent ids come again in the spans of one trace; a span's own id does not.
        return shared ? scratch.strings.share(hex) : hex;
    }

    /** {@code length} bytes at {@code from} in lower-case hex. */
    private static String hex(byte[] bytes, int from, int length) {
        byte[] digits = new byte[2 * length];
        for (int i = 0; i < length; i++) {
            int b = bytes[from + i] & 0xFF;
            digits[2 * i] = HEX_DIGITS[b >>> 4];
            digits[2 * i + 1] = HEX_DIGITS[b & 0xF];
        }
        return new String(digits, StandardCharsets.ISO_8859_1);
    }

    /** An enum's number, which must be one of the {@code count} the reader knows, as OTLP/JSON's integer is. */
    private int enumValue(int v, int count, String field) throws InputException {
        if (v < 0 || v >= count) {
            throw error(scratch.pointer() + field, "number out of range: must be between 0 and " + (count - 1));
        }
        return v;
    }

    /** A string the reader takes, within the string limit as OTLP/JSON's is, at {@code field} of {@code pointer}. */
    private String string(String text, String pointer, String field) throws InputException {
        if (!fits(text)) {
            throw tooLong(text, pointer + field);
        }
        return text;
    }

    private boolean fits(String text) {
        int limit = ctx.limits().stringLength();
        return text.length() <= limit || text.codePointCount(0, text.length()) <= limit;
    }

    private InputException tooLong(String text, String pointer) {
        return error(pointer, "a string of " + text.codePointCount(0, text.length())
                + " characters exceeds the string limit of " + ctx.limits().stringLength()).over(Limit.STRING);
    }

    /**
     * The value of attribute {@code kv}, number {@code index} of the object at {@code pointer}, as the audit
     * reads it; null when it has none.
     */
    private AnyValue value(KeyValueAt kv, int index, String pointer) throws InputException {
        return kv.value == ABSENT ? null : value(kv.value, kv.valueEnd, "value", pointer, index).ofAttribute(index);
    }

    /**
     * The value from {@code from} to {@code to}, standing at {@code within} of attribute {@code index} of the object
     * at {@code pointer} (null: the span read).
     */
    private AnyValue value(int from, int to, String within, String pointer, int index) throws InputException {
        String source = ctx.source();
        ProtobufWire w = new ProtobufWire(bytes, from, to - from);
        if (!w.more()) {
            return AnyValue.decoded(AnyValue.Kind.EMPTY, null, 0, source, 1, 1, within);
        }
        int tag = w.tag();
        // In the common form a value holds at most one of its fields, and nothing else but unknown ones.
        while (!oneOf(tag)) {
            w.skipField(tag);
            if (!w.more()) {
                return AnyValue.decoded(AnyValue.Kind.EMPTY, null, 0, source, 1, 1, within);
            }
            tag = w.tag();
        }
        return switch (tag) {
            case STRING_VALUE -> {
                String text = w.string(w.length());
                if (!fits(text)) {
                    throw tooLong(text, (pointer != null ? pointer : scratch.pointer()) + "/attributes/" + index + "/"
                            + within.replace('.', '/').replace("[", "/").replace("]", "") + "/stringValue");
                }
                yield AnyValue.decoded(AnyValue.Kind.STRING, text, 0, source, 1, 1, within);
            }
            case BOOL_VALUE ->
                    AnyValue.decoded(AnyValue.Kind.BOOL, null, w.varint() != 0 ? 1 : 0, source, 1, 1, within);
            case INT_VALUE ->
                    AnyValue.decoded(AnyValue.Kind.INT, null, w.varint(), source, 1, 1, within);
            case DOUBLE_VALUE ->
                    AnyValue.decoded(AnyValue.Kind.DOUBLE, null, 0, source, 1, 1, within);
            case KVLIST_VALUE ->
                    AnyValue.decoded(AnyValue.Kind.KVLIST, null, 0, source, 1, 1, within);
            case BYTES_VALUE ->
                    AnyValue.decoded(AnyValue.Kind.BYTES, null, 0, source, 1, 1, within);
            case ARRAY_VALUE -> {
                int length = w.length();
                List<AnyValue> elements = new ArrayList<>();
                each(w.pos, w.pos + length, ArrayValue.VALUES_FIELD_NUMBER, (i, start, end) ->
                        elements.add(value(start, end, AnyValue.elementWithin(within, i), pointer, index)));
                yield AnyValue.decodedArray(elements, source, 1, 1, within);
            }
            // A profiles dictionary's index means nothing in a trace: an empty value, as OTLP/JSON skips it.
            default -> AnyValue.decoded(AnyValue.Kind.EMPTY, null, 0, source, 1, 1, within);
        };
    }

    /** Whether {@code tag} is one of an AnyValue's values, of its own wire type. */
    private static boolean oneOf(int tag) {
        return switch (tag) {
            case STRING_VALUE, BOOL_VALUE, INT_VALUE, DOUBLE_VALUE, ARRAY_VALUE, KVLIST_VALUE, BYTES_VALUE,
                    STRING_VALUE_STRINDEX -> true;
            default -> false;
        };
    }

    private InputException error(String pointer, String detail) {
        return InputException.rejected(ctx.source(), 1, 1, JsonPointers.toPath(pointer), detail);
    }
}

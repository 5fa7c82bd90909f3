package dev.retryaudit.input.foreign.otlp;

import com.google.protobuf.ByteString;
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
import io.opentelemetry.proto.common.v1.KeyValue;
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
 * The spans of an OTLP export decoded from protobuf, read into the scratch of the OTLP/JSON reader
 * ({@link SpanScratch}) field by field, so that they become attempts where every format's spans do
 * ({@link ScopeTally}, {@link dev.retryaudit.input.foreign.SpanAttempts}), with the checks, messages and
 * paths of the same spans in OTLP/JSON ({@code $.resourceSpans[0].scopeSpans[0].spans[3].kind}): ids
 * become lower-case hex, and only the attributes the audit uses are taken. Everything is placed at line
 * 1, column 1, for the caller to place at its record.
 */
final class OtlpProtobufSpans {
    private static final int SPAN_KINDS = 6;
    private static final int STATUS_CODES = 3;
    private static final byte[] HEX_DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private final ReadContext ctx;
    private final SpanScratch scratch;
    private final Consumer<ForeignSpan> linker;

    private OtlpProtobufSpans(ReadContext ctx, SpanScratch scratch, Consumer<ForeignSpan> linker) {
        this.ctx = ctx;
        this.scratch = scratch;
        this.linker = linker;
    }

    /** Reads the attempt spans of {@code export} into {@code linker}, each resource's once its client is known. */
    static void read(ExportTraceServiceRequest export, ReadContext ctx, SpanScratch scratch, Consumer<ForeignSpan> linker)
            throws InputException {
        OtlpProtobufSpans read = new OtlpProtobufSpans(ctx, scratch, linker);
        List<ResourceSpans> resources = export.getResourceSpansList();
        for (int r = 0; r < resources.size(); r++) {
            read.resource(resources.get(r), "/resourceSpans/" + r);
        }
    }

    private void resource(ResourceSpans rs, String pointer) throws InputException {
        scratch.resourceSpans.clear();
        List<ScopeSpans> scopes = rs.getScopeSpansList();
        for (int s = 0; s < scopes.size(); s++) {
            scope(scopes.get(s), pointer + "/scopeSpans/" + s);
        }
        String client = null;
        if (rs.hasResource()) {
            OtlpResource.Client c = new OtlpResource.Client();
            List<KeyValue> attributes = rs.getResource().getAttributesList();
            for (int a = 0; a < attributes.size(); a++) {
                KeyValue kv = attributes.get(a);
                if (OtlpResource.Client.names(kv.getKey())) {
                    c.attribute(kv.getKey(), value(kv, a, pointer + "/resource"));
                }
            }
            client = c.name();
        }
        OtlpReader.resourceRead(scratch, client, linker);
    }

    private void scope(ScopeSpans ss, String pointer) throws InputException {
        String scope = ss.hasScope() ? string(ss.getScope().getName(), pointer, "/scope/name") : null;
        ScopeTally tally = new ScopeTally();
        List<Span> spans = ss.getSpansList();
        for (int i = 0; i < spans.size(); i++) {
            scratch.reset(1, 1, pointer, i);
            scratch.recordsEveryStatus = true;
            span(spans.get(i));
            tally.span(scratch, ctx);
        }
        tally.end(ctx, 1, 1, scope);
    }

    private void span(Span span) throws InputException {
        SpanScratch s = scratch;
        s.ids[0] = id(span.getTraceId(), "traceId", true);
        s.ids[1] = id(span.getSpanId(), "spanId", false);
        s.ids[2] = id(span.getParentSpanId(), "parentSpanId", true);
        Arrays.fill(s.idPlaces, 1);
        Arrays.fill(s.nanoPlaces, 1);
        String name = span.getName();
        if (!fits(name)) {
            throw tooLong(name, s.pointer() + "/name");
        }
        s.name = s.strings.share(name);
        s.spanKind = enumValue(span.getKindValue(), SPAN_KINDS, "/kind");
        s.nanos[0] = span.getStartTimeUnixNano();
        s.nanos[1] = span.getEndTimeUnixNano();
        List<KeyValue> attributes = span.getAttributesList();
        for (int a = 0; a < attributes.size(); a++) {
            KeyValue kv = attributes.get(a);
            String key = kv.getKey();
            if (!fits(key)) {
                throw tooLong(key, s.pointer() + "/attributes/" + a + "/key");
            }
            OtlpAttribute.Match match = OtlpAttribute.find(key);
            // The span's pointer is made only for an error: null stands for it.
            s.attribute(key, match, match != null && s.wants(match) ? value(kv, a, null) : null);
        }
        if (span.getEventsCount() > 0) {
            s.exception = events(span.getEventsList());
        }
        if (span.hasStatus()) {
            Status st = span.getStatus();
            s.statusCode = enumValue(st.getCodeValue(), STATUS_CODES, "/status/code");
            if (!st.getMessage().isEmpty()) {
                s.statusMessage = string(st.getMessage(), s.pointer(), "/status/message");
            }
        }
    }

    private Outcome events(List<Span.Event> events) throws InputException {
        Outcome found = null;
        for (int e = 0; e < events.size(); e++) {
            Span.Event event = events.get(e);
            ExceptionEvents.Event taken = new ExceptionEvents.Event();
            String at = scratch.pointer() + "/events/" + e;
            taken.name(string(event.getName(), at, "/name"));
            taken.time = event.getTimeUnixNano();
            List<KeyValue> attributes = event.getAttributesList();
            for (int a = 0; a < attributes.size(); a++) {
                KeyValue kv = attributes.get(a);
                if (ExceptionEvents.Event.reads(kv.getKey())) {
                    taken.attribute(kv.getKey(), value(kv, a, at), scratch);
                }
            }
            Outcome o = taken.end(scratch);
            found = found != null ? found : o;
        }
        return found;
    }

    /** An id as OTLP/JSON writes it, lower-case hex; null when empty, as an unset field is. */
    private String id(ByteString id, String field, boolean shared) throws InputException {
        if (id.isEmpty()) {
            return null;
        }
        String hex = hex(id);
        if (!fits(hex)) {
            throw tooLong(hex, scratch.pointer() + "/" + field);
        }
        // Trace and parent ids come again in the spans of one trace; a span's own id does not.
        return shared ? scratch.strings.share(hex) : hex;
    }

    /** {@code id} in lower-case hex, read from the message's bytes in place. */
    private static String hex(ByteString id) {
        byte[] digits = new byte[2 * id.size()];
        for (int i = 0; i < id.size(); i++) {
            int b = id.byteAt(i) & 0xFF;
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
    private AnyValue value(KeyValue kv, int index, String pointer) throws InputException {
        return kv.hasValue() ? value(kv.getValue(), "value", pointer, index).ofAttribute(index) : null;
    }

    /**
     * A value standing at {@code within} of attribute {@code index} of the object at {@code pointer} (null: the span
     * read).
     */
    private AnyValue value(io.opentelemetry.proto.common.v1.AnyValue v, String within, String pointer, int index)
            throws InputException {
        String source = ctx.source();
        return switch (v.getValueCase()) {
            case STRING_VALUE -> {
                String text = v.getStringValue();
                if (!fits(text)) {
                    throw tooLong(text, (pointer != null ? pointer : scratch.pointer()) + "/attributes/" + index + "/" + within.replace('.', '/')
                            .replace("[", "/").replace("]", "") + "/stringValue");
                }
                yield AnyValue.decoded(AnyValue.Kind.STRING, text, 0, source, 1, 1, within);
            }
            case BOOL_VALUE -> AnyValue.decoded(AnyValue.Kind.BOOL, null, v.getBoolValue() ? 1 : 0, source, 1, 1, within);
            case INT_VALUE -> AnyValue.decoded(AnyValue.Kind.INT, null, v.getIntValue(), source, 1, 1, within);
            case DOUBLE_VALUE -> AnyValue.decoded(AnyValue.Kind.DOUBLE, null, 0, source, 1, 1, within);
            case KVLIST_VALUE -> AnyValue.decoded(AnyValue.Kind.KVLIST, null, 0, source, 1, 1, within);
            case BYTES_VALUE -> AnyValue.decoded(AnyValue.Kind.BYTES, null, 0, source, 1, 1, within);
            case ARRAY_VALUE -> {
                List<io.opentelemetry.proto.common.v1.AnyValue> values = v.getArrayValue().getValuesList();
                List<AnyValue> elements = new ArrayList<>(values.size());
                for (int i = 0; i < values.size(); i++) {
                    elements.add(value(values.get(i), AnyValue.elementWithin(within, i), pointer, index));
                }
                yield AnyValue.decodedArray(elements, source, 1, 1, within);
            }
            // A profiles dictionary's index means nothing in a trace: an empty value, as OTLP/JSON skips it.
            case STRING_VALUE_STRINDEX, VALUE_NOT_SET -> AnyValue.decoded(AnyValue.Kind.EMPTY, null, 0, source, 1, 1,
                    within);
        };
    }

    private InputException error(String pointer, String detail) {
        return InputException.rejected(ctx.source(), 1, 1, JsonPointers.toPath(pointer), detail);
    }
}

package dev.retryaudit.input.foreign;

import dev.retryaudit.json.JsonCursor;
import dev.retryaudit.json.StringPool;
import dev.retryaudit.input.reader.ReadContext;
import dev.retryaudit.model.internal.InputException;
import dev.retryaudit.model.Outcome;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What one span said, reused from span to span: filled by the OTLP reader, and by the
 * Zipkin and Jaeger readers from their spans, so that every format's span becomes an attempt
 * in one place ({@link SpanAttempts#attempt}).
 */
public final class SpanScratch implements AnyValue.Span {
    final AnyValue[] values = new AnyValue[OtlpAttribute.values().length];
    final OtlpAttribute.Match[] keys = new OtlpAttribute.Match[values.length];
    public final String[] ids = new String[3];
    /** The names of the trace, span and parent ids in the format read, for errors. */
    public String[] idNames = {"traceId", "spanId", "parentSpanId"};
    public final long[] idPlaces = new long[6];
    public final long[] nanos = new long[2];
    public final long[] nanoPlaces = new long[4];
    long line;
    long column;
    long order;
    private String scopePointer;
    /** The pointer of the scope's spans array (or of the span itself with index -1), made once a scope. */
    String arrayPointer;
    int index;
    private String pointer;
    public final StringPool strings = new StringPool(1 << 16);
    public String name;
    public int spanKind;
    public int statusCode;
    public boolean requestHeaders;
    /** Whether the span records any response header (or gRPC response metadata) at all. */
    public boolean responseHeaders;
    /**
     * Whether the span's producer records the status of every response it got, so that an HTTP span
     * without one got none: OpenTelemetry does (OTLP, and its Zipkin and Jaeger exporters, known by
     * their {@code otel.scope.*} or {@code otel.library.*} tags); Brave tags a status only outside 2xx.
     */
    public boolean recordsEveryStatus;
    /** What the span's exception events name (a timeout, a connection error), or null. */
    public Outcome exception;
    /** Whether the span holds an {@code exception} event at all, whatever it names. */
    public boolean exceptionEvent;
    /** The span status's message ({@code UNAVAILABLE: io exception} from grpc-java), or null. */
    public String statusMessage;
    /** The time of the span's first {@code Outbound message} event (gRPC: when the attempt sent), 0 when none. */
    public long sendNanos;
    /** The spans of the source that were no attempt although they record a protocol, counted for a note. */
    public final UnusedSpans unused = new UnusedSpans();
    /** The attempt spans of the resource being read, which learn their client when it is done. */
    public final List<ForeignSpan> resourceSpans = new ArrayList<>();

    /**
     * Starts a span at the cursor: span {@code index} of the scope at {@code scopePointer}, or, with
     * index -1, the span at {@code scopePointer} itself.
     */
    public void reset(JsonCursor c, String scopePointer, int index) {
        reset(c.line(), c.column(), scopePointer, index);
    }

    /** Starts a span that stands at {@code line} and {@code column}, as {@link #reset(JsonCursor, String, int)} says. */
    public void reset(long line, long column, String scopePointer, int index) {
        if (scopePointer != this.scopePointer || index < 0) {
            arrayPointer = index < 0 ? scopePointer : scopePointer + "/spans";
        }
        this.scopePointer = index < 0 ? null : scopePointer;
        this.index = index;
        pointer = null;
        Arrays.fill(values, null);
        Arrays.fill(keys, null);
        Arrays.fill(ids, null);
        Arrays.fill(nanos, 0);
        this.line = line;
        this.column = column;
        order++;
        name = null;
        spanKind = 0;
        statusCode = 0;
        requestHeaders = false;
        responseHeaders = false;
        recordsEveryStatus = false;
        exception = null;
        exceptionEvent = false;
        statusMessage = null;
        sendNanos = 0;
    }

    /** How many spans were read with this scratch (or before it, see {@link #startAfter}). */
    public long spansRead() {
        return order;
    }

    /** Numbers the spans read with this scratch from after the {@code spans} spans of the source read before. */
    public void startAfter(long spans) {
        order = spans;
    }

    @Override
    public String pointer() {
        if (pointer == null) {
            pointer = index < 0 ? arrayPointer : arrayPointer + "/" + index;
        }
        return pointer;
    }

    /** Takes the value of attribute (or tag) {@code key}, if the audit uses it and no key of more precedence gave it. */
    public void attribute(String key, AnyValue value) {
        attribute(key, OtlpAttribute.find(key), value);
    }

    /**
     * Takes {@code value} (null: none was read) of attribute {@code key} as {@code match} says, also noting a
     * recorded request or response header: the one place where an attribute or tag of every format reaches the span.
     */
    public void attribute(String key, OtlpAttribute.Match match, AnyValue value) {
        if (value != null && match != null && wants(match)) {
            put(match, value);
        }
        if (OtlpAttribute.isRequestHeader(key)) {
            requestHeaders = true;
        } else if (OtlpAttribute.isResponseHeader(key)) {
            responseHeaders = true;
        } else if (key.startsWith("otel.scope.") || key.startsWith("otel.library.")) {
            recordsEveryStatus = true;
        }
    }

    /** Whether a value under {@code m}'s key replaces the one held: none is, or its key takes precedence. */
    public boolean wants(OtlpAttribute.Match m) {
        OtlpAttribute.Match held = keys[m.attribute().ordinal()];
        return held == null || m.precedence() < held.precedence();
    }

    public void put(OtlpAttribute.Match m, AnyValue v) {
        values[m.attribute().ordinal()] = v;
        keys[m.attribute().ordinal()] = m;
    }

    boolean has(OtlpAttribute a) {
        return values[a.ordinal()] != null;
    }

    String string(OtlpAttribute a) throws InputException {
        AnyValue v = values[a.ordinal()];
        return v == null ? null : v.string(keys[a.ordinal()].key(), this);
    }

    Long integer(OtlpAttribute a, long min, long max) throws InputException {
        AnyValue v = values[a.ordinal()];
        return v == null ? null : v.integer(keys[a.ordinal()].key(), min, max, this);
    }

    Boolean bool(OtlpAttribute a) throws InputException {
        AnyValue v = values[a.ordinal()];
        return v == null ? null : v.bool(keys[a.ordinal()].key(), this);
    }

    <E extends Enum<E>> E enumValue(OtlpAttribute a, Class<E> type) throws InputException {
        AnyValue v = values[a.ordinal()];
        return v == null ? null : v.enumValue(keys[a.ordinal()].key(), type, this);
    }

    String header(OtlpAttribute a, boolean numeric) throws InputException {
        AnyValue v = values[a.ordinal()];
        return v == null ? null : v.header(keys[a.ordinal()].key(), numeric, this);
    }

    /** A header whose value may hold commas, whole ({@link AnyValue#fieldValue}). */
    String fieldValue(OtlpAttribute a, boolean numeric) throws InputException {
        AnyValue v = values[a.ordinal()];
        return v == null ? null : v.fieldValue(keys[a.ordinal()].key(), numeric, this);
    }

    /**
     * An attribute the audit uses only as a hint (to name an outcome, a host or a thread, to link
     * requests): a string (an integer too for {@code thread.id}), or a header's value. One of an
     * unexpected type is skipped with a note, never rejected.
     */
    String hint(OtlpAttribute a, ReadContext ctx) {
        AnyValue v = values[a.ordinal()];
        if (v == null) {
            return null;
        }
        String key = keys[a.ordinal()].key();
        try {
            // Recorded headers and gRPC metadata are string arrays; rpc.grpc.status_code is a number.
            if (key.startsWith("http.") || key.startsWith("rpc.grpc.")) {
                return v.fieldValue(key, true, this);
            }
            return a == OtlpAttribute.THREAD_ID || a == OtlpAttribute.GRPC_STATUS || a == OtlpAttribute.ERROR_TYPE
                    || a == OtlpAttribute.TOOL_ATTEMPT || a == OtlpAttribute.TOOL_CALL_ID
                    ? v.text(key, this) : v.string(key, this);
        } catch (InputException e) {
            ctx.note(e.line(), e.column(), e.detail() + " at " + e.path() + "; skipped: the audit uses "
                    + key + " only as a hint");
            return null;
        }
    }
}

package dev.retryaudit.input.foreign;

import dev.retryaudit.model.Effect;

/**
 * A span of a foreign trace format (OTLP, Zipkin, Jaeger) that is an attempt, or a HAR entry, as
 * kept until the whole source is read for {@link RetryLinker}: its identity, the operation fields it
 * carries and its hop. Only what the audit uses is kept, never the span's text.
 */
public final class ForeignSpan {
    /** What made the span an attempt, which decides how it is grouped into an operation. */
    public enum Kind {
        HTTP,
        TOOL,
        EXPLICIT,
        /** A span of a gRPC call ({@link #grpc} says which part), linked by {@link GrpcCalls}. */
        GRPC,
        /**
         * A span that records no attempt but may wrap one: a span under which sends stand (an SDK's
         * per-attempt span, a method span around a tool, a framework's node), kept for its name and parent.
         */
        WRAPPER
    }

    public final Hop hop = new Hop();
    /** What a span of kind GRPC says of its call; null for any other kind. */
    GrpcSpan grpc;
    public Kind kind;
    /** Where the span stands in the source, for ordering. */
    public long order;
    /** The start time in unsigned nanoseconds (0 when absent), for ordering hops exactly. */
    public long startNanos;
    public long line;
    public long column;
    /**
     * The JSON Pointer of the array the span stands in within its export ({@code .../spans},
     * {@code /log/entries}) and the span's index in it; with index -1, the span's own pointer.
     */
    public String arrayPointer;
    public int index;
    public String traceId;
    String spanId;
    /** The parent span's id, or "" for a root span. */
    public String parentSpanId;
    String name;
    boolean server;
    String operationId;
    public String runId;
    Effect effect;
    public String method;
    public String url;
    public String host;
    String toolName;
    String toolCallId;
    /** Whether a wrapper is a GenAI model call ({@code gen_ai.operation.name} chat, OpenInference LLM). */
    boolean modelCall;
    /** A tool call's arguments in canonical form ({@link ToolArguments}), or null when not recorded. */
    String toolArguments;
    /** Whether the span records request headers at all: then a missing Idempotency-Key header was not sent. */
    public boolean requestHeaders;
    /**
     * Whether the span records any response header at all: then a missing Retry-After was not sent; without
     * one, nobody captured it ({@link UncapturedWaits}).
     */
    public boolean responseHeaders;
    /**
     * Who sent the request, for linking resends across traces: the resource's service name and
     * instance (or a Zipkin/Jaeger process's service and tags), or null when the format names none.
     */
    public String client;
    /**
     * The sending thread's id or name ({@code thread.id}, {@code thread.name}), or null: a preference
     * in linking a root span's retry, never a split of its client ({@link RequestChains}).
     */
    String thread;
    /** The attribute or header that gave {@code hop.resendCount} (e.g. {@code resend_count}), or null. */
    public String resendSource;
    /** Whether the span ended with nothing recorded of how, and was read as a timeout ({@link Abandoned}). */
    boolean abandoned;
    /** Whether the operation this span starts is named by the span's place ({@code source#pointer}), as a HAR entry's. */
    public boolean placeIsId;

    /** The span's trace id, "" for a HAR entry. */
    public String traceId() {
        return traceId;
    }

    /** The span's id (a HAR entry's is null). */
    public String spanId() {
        return spanId;
    }

    /** Where the span stands in its source, for ordering. */
    public long order() {
        return order;
    }

    /** The start time in unsigned nanoseconds, 0 when absent. */
    public long startNanos() {
        return startNanos;
    }

    /** The {@code Retry-After} the span's response carried, or null. */
    public String retryAfter() {
        return hop.retryAfter;
    }

    /** The span's JSON Pointer within its export; null for a record placed by its reader. */
    public String pointer() {
        return arrayPointer == null ? null : index < 0 ? arrayPointer : arrayPointer + "/" + index;
    }

    /** The resend count, 0 for a first send. */
    int resends() {
        return hop.resendCount == null ? 0 : hop.resendCount;
    }
}

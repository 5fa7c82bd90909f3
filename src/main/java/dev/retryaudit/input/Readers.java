package dev.retryaudit.input;

import java.util.List;
import java.util.stream.Stream;

/** The reader of each input format: the one place that maps a format to its reader. */
public final class Readers {
    private Readers() {
    }

    /** The reader for {@code format}, or null when this build cannot read it. */
    public static TraceReader forFormat(InputFormat format) {
        return switch (format) {
            case OPERATIONS -> new OperationsReader();
            case SPANS -> new SpansReader();
            case RETRY_TRACE -> new RetryTraceReader();
            case OTLP -> new OtlpReader();
            case HAR -> new HarReader();
            case ZIPKIN -> new ZipkinReader();
            case JAEGER -> new JaegerReader();
            case AUTO -> null;
        };
    }

    /** The ids of the formats this build reads, {@code auto} first: what {@code --input-format} accepts. */
    public static List<String> supportedIds() {
        return Stream.of(InputFormat.values()).filter(f -> f == InputFormat.AUTO || forFormat(f) != null)
                .map(InputFormat::id).toList();
    }
}

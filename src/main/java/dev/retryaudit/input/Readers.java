package dev.retryaudit.input;

import dev.retryaudit.input.foreign.har.HarReader;
import dev.retryaudit.input.foreign.jaeger.JaegerReader;
import dev.retryaudit.input.foreign.otlp.OtlpReader;
import dev.retryaudit.input.foreign.retrytrace.RetryTraceReader;
import dev.retryaudit.input.foreign.zipkin.ZipkinReader;
import dev.retryaudit.input.operations.OperationsReader;
import dev.retryaudit.input.operations.SpansReader;
import dev.retryaudit.input.reader.TraceReader;
import dev.retryaudit.model.InputFormat;
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

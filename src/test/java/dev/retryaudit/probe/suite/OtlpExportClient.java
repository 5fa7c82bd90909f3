package dev.retryaudit.probe.suite;

import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.concurrent.TimeUnit;

/**
 * A client for the probe's {@code otlp} suite: the OpenTelemetry Java SDK's OTLP/HTTP span exporter,
 * configured as shipped (its default retry policy), exporting one span to {@code RETRY_AUDIT_PROBE_URL}
 * plus {@code /v1/traces}, in protobuf (the Java exporter has no JSON encoding). Exits 0 when the export
 * succeeded, 1 when it failed.
 */
public final class OtlpExportClient {
    private OtlpExportClient() {
    }

    public static void main(String[] args) {
        OtlpHttpSpanExporter exporter = OtlpHttpSpanExporter.builder()
                .setEndpoint(System.getenv("RETRY_AUDIT_PROBE_URL") + "/v1/traces").build();
        SdkTracerProvider provider = SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter))
                .build();
        provider.get("retry-audit-probe").spanBuilder("probe-span").startSpan().end();
        // a simple processor's flush completes with its pending exports, failed when the export failed
        CompletableResultCode flushed = provider.forceFlush().join(60, TimeUnit.SECONDS);
        provider.shutdown().join(10, TimeUnit.SECONDS);
        System.exit(flushed.isSuccess() ? 0 : 1);
    }
}

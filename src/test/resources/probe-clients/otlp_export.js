// A client for the probe's otlp suite: the OpenTelemetry Node SDK's OTLP/HTTP trace exporter (JSON),
// configured as shipped, exporting one span to $RETRY_AUDIT_PROBE_URL/v1/traces. Exits 0 when the export
// succeeded, 1 when it failed. Needs @opentelemetry/exporter-trace-otlp-http and @opentelemetry/sdk-trace-base
// on NODE_PATH.
const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http');
const { BasicTracerProvider } = require('@opentelemetry/sdk-trace-base');

const exporter = new OTLPTraceExporter({ url: process.env.RETRY_AUDIT_PROBE_URL + '/v1/traces' });
const span = new BasicTracerProvider().getTracer('retry-audit-probe').startSpan('probe-span');
span.end();
exporter.export([span], (result) => {
  console.log('export result code ' + result.code + (result.error ? ': ' + result.error.message : ''));
  exporter.shutdown().finally(() => process.exit(result.code === 0 ? 0 : 1));
});

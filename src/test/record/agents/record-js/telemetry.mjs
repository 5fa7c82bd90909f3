// Preloaded with --import: an OpenTelemetry Node tracer with the http and undici instrumentations
// (as ../../otel-js/telemetry.mjs), whose exporter writes every finished span, at shutdown, as one
// OTLP/JSON ExportTraceServiceRequest (the OTLP/HTTP JSON exporter's own serializer) to RECORD_OUT.
//   RECORD_SERVICE   service.name (default record-agents)
//   RECORD_HTTP=0    no http/undici instrumentation (an SDK's own spans alone)
//   RECORD_AZURE=1   also the Azure SDK's OpenTelemetry instrumentation
//   RECORD_AWS=1     also @opentelemetry/instrumentation-aws-sdk (a span per SDK command)
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';

// A span processor that keeps every ended span and writes them all when the provider shuts down.
const spans = [];
const keepAll = {
  onStart() {},
  onEnd(span) {
    spans.push(span);
  },
  forceFlush: () => Promise.resolve(),
  shutdown() {
    fs.writeFileSync(process.env.RECORD_OUT, Buffer.from(JsonTraceSerializer.serializeRequest(spans)));
    return Promise.resolve();
  },
};

const requestHeaders = [
  'idempotency-key', 'user-agent', 'x-ms-client-request-id', 'amz-sdk-invocation-id', 'amz-sdk-request',
  'x-stainless-retry-count', 'mcp-session-id', 'x-amz-target',
];
const responseHeaders = ['retry-after', 'retry-after-ms', 'date'];
const provider = new NodeTracerProvider({
  resource: resourceFromAttributes({ 'service.name': process.env.RECORD_SERVICE || 'record-agents' }),
  spanProcessors: [keepAll],
});
provider.register();
const instrumentations = [];
if (process.env.RECORD_HTTP !== '0') {
  instrumentations.push(
    new HttpInstrumentation({ headersToSpanAttributes: { client: { requestHeaders, responseHeaders } } }),
    new UndiciInstrumentation({ headersToSpanAttributes: { requestHeaders, responseHeaders } }),
  );
}
if (process.env.RECORD_AWS === '1') {
  const { AwsInstrumentation } = await import('@opentelemetry/instrumentation-aws-sdk');
  instrumentations.push(new AwsInstrumentation());
}
if (process.env.RECORD_AZURE === '1') {
  const { createAzureSdkInstrumentation } = await import('@azure/opentelemetry-instrumentation-azure-sdk');
  instrumentations.push(createAzureSdkInstrumentation());
}
registerInstrumentations({ instrumentations });
if (process.env.RECORD_AZURE === '1') {
  // The instrumentation patches @azure/core-tracing when it is required (its ESM import is not
  // hooked); the ESM build shares the CommonJS build's state, so the clients' imports see it too.
  createRequire(import.meta.url)('@azure/core-tracing');
}
globalThis.recordShutdown = () => provider.shutdown();

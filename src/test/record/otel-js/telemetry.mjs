// Preloaded with --import: an OpenTelemetry Node tracer with the http and undici instrumentations,
// whose exporter writes every finished span, at shutdown, as one OTLP/JSON ExportTraceServiceRequest
// (the OTLP/HTTP JSON exporter's own serializer) to the file named by RECORD_OUT.
import fs from 'node:fs';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';

const out = process.env.RECORD_OUT;
const spans = [];
const fileExporter = {
  export(batch, done) {
    spans.push(...batch);
    done({ code: 0 });
  },
  shutdown() {
    fs.writeFileSync(out, Buffer.from(JsonTraceSerializer.serializeRequest(spans)));
    return Promise.resolve();
  },
};

const requestHeaders = ['idempotency-key', 'user-agent'];
const responseHeaders = ['retry-after', 'retry-after-ms', 'date'];
const provider = new NodeTracerProvider({
  resource: resourceFromAttributes({ 'service.name': 'record-clients' }),
  spanProcessors: [new SimpleSpanProcessor(fileExporter)],
});
provider.register();
registerInstrumentations({
  instrumentations: [
    new HttpInstrumentation({ headersToSpanAttributes: { client: { requestHeaders, responseHeaders } } }),
    new UndiciInstrumentation({ headersToSpanAttributes: { requestHeaders, responseHeaders } }),
  ],
});
globalThis.recordShutdown = () => provider.shutdown();

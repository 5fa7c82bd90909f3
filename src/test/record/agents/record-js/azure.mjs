// Azure SDK pipeline scenarios: @azure/core-rest-pipeline's createPipelineFromOptions (its default
// policies: client request id, retries, tracing through @azure/core-tracing, which the Azure SDK's
// OpenTelemetry instrumentation turns into spans) sending a keyless POST to the fixture's
// Azure-shaped endpoint, as a data-plane client library would.
//   RECORD_AZURE=1 node --experimental-loader=@opentelemetry/instrumentation/hook.mjs --import ./telemetry.mjs \
//     azure.mjs CASE http://127.0.0.1:PORT
import { createDefaultHttpClient, createHttpHeaders, createPipelineFromOptions, createPipelineRequest } from '@azure/core-rest-pipeline';
import { createTracingClient } from '@azure/core-tracing';
import { CART, finish } from './common.mjs';

const [name, base] = process.argv.slice(2);
const scenario = `azure-core-js-${name}`;
const pipeline = createPipelineFromOptions({ userAgentOptions: { userAgentPrefix: 'record-agents' } });
const client = createDefaultHttpClient();
const send = (tracingOptions) => pipeline.sendRequest(client, createPipelineRequest({
  url: `${base}/s/${scenario}/azure/charges`,
  method: 'POST',
  headers: createHttpHeaders({ 'content-type': 'application/json' }),
  body: JSON.stringify(CART),
  allowInsecureConnection: true,
  // -timeout: the request's own timeout (1 s), which aborts the send.
  timeout: name.includes('-timeout') ? 1000 : 0,
  tracingOptions,
}));
// A client library's method span (as Azure SDK clients make with createTracingClient), unless the
// case is a bare pipeline call (-root).
const tracing = createTracingClient({ namespace: 'Record.Charges', packageName: 'record-charges', packageVersion: '1.0.0' });
const call = name.endsWith('-root')
  ? send(undefined)
  : tracing.withSpan('ChargesClient.createCharge', {}, (options) => send(options.tracingOptions));
const result = await call.then((r) => ({ status: r.status, body: r.bodyAsText }), (e) => ({ error: String(e), code: e.code }));
await finish(result);

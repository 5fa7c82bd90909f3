// serve's Node recipe: `node --require ./tracing.cjs app.js`. The SDK takes the exporter, its endpoint and
// protocol from the environment serve sets; the HTTP instrumentation captures headers only when told in code.
const { NodeSDK } = require('@opentelemetry/sdk-node');
const { HttpInstrumentation } = require('@opentelemetry/instrumentation-http');

const sdk = new NodeSDK({
  instrumentations: [new HttpInstrumentation({
    headersToSpanAttributes: {
      client: {
        requestHeaders: ['idempotency-key'],
        responseHeaders: ['retry-after', 'retry-after-ms', 'date'],
      },
    },
  })],
});
sdk.start();
// Export what is held when the program ends: its last spans would be lost otherwise.
process.once('beforeExit', () => sdk.shutdown());
process.once('SIGTERM', () => sdk.shutdown().finally(() => process.exit(143)));

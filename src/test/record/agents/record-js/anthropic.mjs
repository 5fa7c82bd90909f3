// @anthropic-ai/sdk scenarios with no HTTP instrumentation: the SDK's own call span (its tracing uses
// the registered tracer provider) is the only span of a messages.create that the SDK may re-send.
//   RECORD_HTTP=0 node --experimental-loader=@opentelemetry/instrumentation/hook.mjs --import ./telemetry.mjs \
//     anthropic.mjs CASE http://127.0.0.1:PORT
import Anthropic from '@anthropic-ai/sdk';
import { finish } from './common.mjs';

const [name, base] = process.argv.slice(2);
const scenario = `anthropic-js-${name}`;
const client = new Anthropic({ apiKey: 'test-key', baseURL: `${base}/s/${scenario}`, maxRetries: 2 });
const result = await client.messages.create({
  model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'Charge cart c-1 for 1200.' }],
}).then((m) => ({ stop: m.stop_reason, content: m.content }), (e) => ({ error: String(e) }));
await finish(result);

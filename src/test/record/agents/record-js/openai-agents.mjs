// OpenAI Agents JS scenarios: an Agent with the tool charge_cart run against the fixture's scripted
// model (the Responses API through the openai client's base URL), traced by the HTTP
// instrumentations only (the SDK's own tracing, which exports to OpenAI, is off).
//   node --experimental-loader=@opentelemetry/instrumentation/hook.mjs --import ./telemetry.mjs \
//     openai-agents.mjs CASE http://127.0.0.1:PORT
import { trace } from '@opentelemetry/api';
import { Agent, run, setDefaultOpenAIClient, setTracingDisabled, tool } from '@openai/agents';
import OpenAI from 'openai';
import { z } from 'zod';
import { finish, tools } from './common.mjs';

const [name, base] = process.argv.slice(2);
const scenario = `openai-agents-js-${name}`;
const http = tools(base, scenario);
setTracingDisabled(true);
setDefaultOpenAIClient(new OpenAI({ apiKey: 'test-key', baseURL: `${base}/s/${scenario}/v1` }));
const agent = new Agent({
  name: 'charge-agent',
  instructions: 'You charge carts.',
  model: 'scripted-model',
  tools: [
    tool({
      name: 'charge_cart', description: 'Charge a cart (a payment capture)',
      parameters: z.object({ cart: z.string(), amount: z.number() }),
      execute: async (args) => JSON.stringify(await http.chargeCart(args)),
    }),
    tool({
      name: 'get_cart', description: 'Read a cart',
      parameters: z.object({ cart: z.string() }),
      execute: async (args) => JSON.stringify(await http.getCart(args)),
    }),
  ],
});
const result = await trace.getTracer('record').startActiveSpan('charge-agent.run', async (span) => {
  try {
    const r = await run(agent, 'Charge cart c-1 for 1200.', { maxTurns: 6 });
    return { output: r.finalOutput };
  } catch (e) {
    return { error: String(e) };
  } finally {
    span.end();
  }
});
await finish(result);

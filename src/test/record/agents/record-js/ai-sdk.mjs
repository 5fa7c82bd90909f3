// Vercel AI SDK scenarios: generateText with experimental_telemetry, an OpenAI-compatible provider
// pointed at the fixture's scripted model, tools charge_cart (POST) and get_cart (GET).
//   node --experimental-loader=@opentelemetry/instrumentation/hook.mjs --import ./telemetry.mjs \
//     ai-sdk.mjs CASE http://127.0.0.1:PORT
import { generateText, streamText, tool, stepCountIs } from 'ai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { z } from 'zod';
import { finish, tools } from './common.mjs';
import { cases as all } from './cases.mjs';

const cases = all['ai-sdk'];

const [name, base] = process.argv.slice(2);
const scenario = `ai-sdk-${name}`;
const { keyed } = cases[name];
const http = tools(base, scenario, { keyed });
const model = createOpenAICompatible({ name: 'scripted', baseURL: `${base}/s/${scenario}/v1`, apiKey: 'test-key' })('scripted-model');
// stream-*: streamText (ai.streamText spans, a streamed chat completion); *-no-inputs: telemetry
// with recordInputs false (no tool arguments, no prompts in the spans).
const generate = name.startsWith('stream-')
  ? async (options) => {
    const r = streamText(options);
    await r.consumeStream();
    return { text: await r.text, steps: await r.steps };
  }
  : (options) => generateText(options);
const result = await generate({
  model,
  system: 'You charge carts.',
  prompt: 'Charge cart c-1 for 1200.',
  tools: {
    charge_cart: tool({
      description: 'Charge a cart (a payment capture)',
      inputSchema: z.object({ cart: z.string(), amount: z.number() }),
      execute: (args) => http.chargeCart(args),
    }),
    get_cart: tool({
      description: 'Read a cart',
      inputSchema: z.object({ cart: z.string() }),
      execute: (args) => http.getCart(args),
    }),
  },
  stopWhen: stepCountIs(6),
  experimental_telemetry: { isEnabled: true, functionId: 'charge-agent', recordInputs: !name.includes('no-inputs') },
}).then((r) => ({ text: r.text, steps: Array.isArray(r.steps) ? r.steps.length : r.steps }), (e) => ({ error: String(e) }));
await finish(result);

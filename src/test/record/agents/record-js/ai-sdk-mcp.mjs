// The Vercel AI SDK's agent with its tools from an MCP server: @ai-sdk/mcp's client over Streamable
// HTTP to mcp-server.mjs (started here, untraced), each tool call given a 1 s AbortSignal timeout;
// generateText with experimental_telemetry against the fixture's scripted model.
//   node --experimental-loader=@opentelemetry/instrumentation/hook.mjs --import ./telemetry.mjs \
//     ai-sdk-mcp.mjs CASE http://127.0.0.1:PORT
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { generateText, stepCountIs } from 'ai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createMCPClient } from '@ai-sdk/mcp';
import { finish } from './common.mjs';

const [name, base] = process.argv.slice(2);
const scenario = `ai-sdk-mcp-${name}`;
const child = spawn(process.execPath, ['mcp-server.mjs', base, scenario], { stdio: ['ignore', 'pipe', 'inherit'], env: { PATH: process.env.PATH } });
const [line] = await once(child.stdout, 'data');
const url = `http://${String(line).trim().split(' ').pop()}/mcp`;

const mcp = await createMCPClient({ transport: { type: 'http', url } });
const remote = await mcp.tools();
const tools = Object.fromEntries(Object.entries(remote).map(([toolName, t]) => [toolName, {
  ...t,
  execute: (args, options) => t.execute(args, { ...options, abortSignal: AbortSignal.timeout(1000) }),
}]));
const model = createOpenAICompatible({ name: 'scripted', baseURL: `${base}/s/${scenario}/v1`, apiKey: 'test-key' })('scripted-model');
const result = await generateText({
  model,
  system: 'You charge carts.',
  prompt: 'Charge cart c-1 for 1200.',
  tools,
  stopWhen: stepCountIs(6),
  experimental_telemetry: { isEnabled: true, functionId: 'charge-agent' },
}).then((r) => ({ text: r.text, steps: r.steps.length }), (e) => ({ error: String(e) }));
// The agent lives on past the held first call (the server answers it after 3 s), then closes.
await new Promise((resolve) => setTimeout(resolve, 3000));
await mcp.close();
child.kill('SIGTERM');
await finish(result);

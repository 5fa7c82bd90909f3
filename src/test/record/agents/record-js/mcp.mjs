// MCP client scenarios: @modelcontextprotocol/sdk's Client over Streamable HTTP calls charge_cart on
// mcp-server.mjs (started here, untraced) under an application span; the tools/call request has a
// 1 s timeout, after which the client calls the tool again. Only the HTTP instrumentations trace it.
//   node --experimental-loader=@opentelemetry/instrumentation/hook.mjs --import ./telemetry.mjs \
//     mcp.mjs CASE http://127.0.0.1:PORT
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { trace } from '@opentelemetry/api';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CART, finish } from './common.mjs';

const [name, base] = process.argv.slice(2);
const scenario = `mcp-js-${name}`;
const child = spawn(process.execPath, ['mcp-server.mjs', base, scenario], { stdio: ['ignore', 'pipe', 'inherit'], env: { PATH: process.env.PATH } });
const [line] = await once(child.stdout, 'data');
const url = `http://${String(line).trim().split(' ').pop()}/mcp`;

const result = await trace.getTracer('record').startActiveSpan('charge-agent.run', async (span) => {
  const client = new Client({ name: 'charge-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const calls = [];
  for (let attempt = 1; attempt <= 2; attempt++) {
    try {
      const r = await client.callTool({ name: 'charge_cart', arguments: CART }, undefined, { timeout: 1000 });
      calls.push({ ok: !r.isError, text: r.content[0].text });
      break;
    } catch (e) {
      calls.push({ error: String(e) });
    }
  }
  // The agent lives on past the held first call (the server answers it after 3 s), then closes.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  await client.close();
  span.end();
  return calls;
});
child.kill('SIGTERM');
await finish(result);

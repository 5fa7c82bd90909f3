// A Streamable HTTP MCP server (@modelcontextprotocol/sdk's own McpServer and transport, one
// session) on 127.0.0.1, whose tool charge_cart POSTs the fixture's payments endpoint. Not traced:
// it stands for a remote tool server. Prints "listening on 127.0.0.1:P".
//   node mcp-server.mjs FIXTURE_BASE SCENARIO
import http from 'node:http';
import crypto from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const [base, scenario] = process.argv.slice(2);
const server = new McpServer({ name: 'payments', version: '1.0.0' });
server.registerTool('charge_cart', {
  description: 'Charge a cart (a payment capture)',
  inputSchema: { cart: z.string(), amount: z.number() },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
}, async (args) => {
  const response = await fetch(`${base}/s/${scenario}/pay/charge`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(args),
  });
  const text = await response.text();
  return { content: [{ type: 'text', text }], isError: !response.ok };
});
const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => crypto.randomUUID() });
await server.connect(transport);
const httpServer = http.createServer(async (req, res) => {
  if (new URL(req.url, 'http://127.0.0.1').pathname !== '/mcp') {
    res.writeHead(404).end();
    return;
  }
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
  await transport.handleRequest(req, res, body);
});
httpServer.listen(0, '127.0.0.1', () => process.stdout.write(`listening on 127.0.0.1:${httpServer.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));

// Loopback server for recording real client exports: answers 429/503 with Retry-After, stalls
// responses past a client timeout, serves plain 200s and a test page, and saves the bodies that
// trace exporters post to it. Listens on 127.0.0.1 only. No dependencies beyond Node itself.
//
//   node server.mjs PORT OUTDIR
//
// Paths (NAME keys a per-path counter, so each scenario uses its own NAME):
//   /rl/NAME?n=K&code=429|503|408&ra=SECONDS|date:SECONDS|ms:MILLIS|none
//        the first K requests get CODE with Retry-After (delay-seconds, or an HTTP-date SECONDS
//        ahead) or, for ms:MILLIS, retry-after-ms alone (the header the openai and Anthropic SDKs
//        read first), later ones 200; each request is logged with how early it came
//   /stall/NAME?n=K&ms=M   the first K requests are answered 200 only after M ms, later ones at once
//   /ok/NAME               always 200
//   /sse/NAME?n=K          the first K requests get an event stream (retry: 300, two events) that
//                          then ends, so an EventSource reconnects; later ones 204, which stops it
//   /page/NAME.html        a page from pages/NAME.html next to this file
// Under /rl, /stall and /ok, a path that ends in /chat/completions or /v1/messages is the fake
// OpenAI or Anthropic API: its 200 is a chat completion or a message, its errors a JSON error body.
// A request with an Origin header gets CORS headers (Retry-After exposed); OPTIONS is a preflight
// answered 204 at once, logged, and not counted on its path.
//   POST /api/v2/spans     a Zipkin v2 JSON body (gunzipped as a Zipkin collector does), saved to
//                          OUTDIR/zipkin-N.json
//   POST /v1/traces        an OTLP/HTTP JSON body, saved to OUTDIR/otlp-N.json
//   GET /log               the request log as JSON lines (also written to OUTDIR/server-log.jsonl)
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const port = Number(process.argv[2] || 0);
const outDir = process.argv[3] || '.';
const here = path.dirname(fileURLToPath(import.meta.url));
fs.mkdirSync(outDir, { recursive: true });
const counters = new Map();
const notBefore = new Map();
const log = [];
let saved = 0;

function record(entry) {
  log.push(entry);
  fs.appendFileSync(path.join(outDir, 'server-log.jsonl'), JSON.stringify(entry) + '\n');
}

function body(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', () => resolve(Buffer.concat(chunks)));
  });
}

const server = http.createServer(async (req, res) => {
  const now = Date.now();
  const url = new URL(req.url, 'http://127.0.0.1');
  const parts = url.pathname.split('/').filter(Boolean);
  const payload = await body(req);
  const key = req.method === 'OPTIONS' ? `OPTIONS ${url.pathname}` : url.pathname;
  const count = (counters.get(key) || 0) + 1;
  counters.set(key, count);
  const entry = {
    at: new Date(now).toISOString(), method: req.method, path: req.url, n: count,
    idempotencyKey: req.headers['idempotency-key'] || null, bodyBytes: payload.length,
  };
  const allowed = notBefore.get(key);
  if (allowed !== undefined) {
    entry.earlyMs = Math.max(0, allowed - now);
  }
  const n = Number(url.searchParams.get('n') || 0);

  if (req.method === 'POST' && (url.pathname === '/api/v2/spans' || url.pathname === '/v1/traces')) {
    saved += 1;
    const kind = url.pathname === '/v1/traces' ? 'otlp' : 'zipkin';
    const gzip = req.headers['content-encoding'] === 'gzip';
    fs.writeFileSync(path.join(outDir, `${kind}-${saved}.json`), gzip ? zlib.gunzipSync(payload) : payload);
    res.writeHead(url.pathname === '/v1/traces' ? 200 : 202, { 'content-type': 'application/json' });
    res.end(url.pathname === '/v1/traces' ? '{}' : '');
    return;
  }
  if (url.pathname === '/log') {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    res.end(log.map((e) => JSON.stringify(e)).join('\n') + '\n');
    return;
  }
  record(entry);
  if (req.headers.origin) {
    res.setHeader('access-control-allow-origin', req.headers.origin);
    res.setHeader('access-control-expose-headers', 'retry-after, date');
  }
  if (req.method === 'OPTIONS') {
    res.writeHead(204, {
      'access-control-allow-methods': 'GET, POST',
      'access-control-allow-headers': req.headers['access-control-request-headers'] || 'content-type',
      // No preflight cache, so that every cross-origin POST, a retry too, is preceded by its own.
      'access-control-max-age': '0',
    });
    res.end();
    return;
  }
  const api = fakeApi(url.pathname);
  if (parts[0] === 'rl' && count <= n) {
    const code = Number(url.searchParams.get('code') || 429);
    const ra = url.searchParams.get('ra') || '1';
    const headers = { 'content-type': api ? 'application/json' : 'text/plain' };
    if (ra.startsWith('ms:')) {
      headers['retry-after-ms'] = ra.slice(3);
      notBefore.set(key, now + Number(ra.slice(3)));
    } else if (ra.startsWith('date:')) {
      const at = Math.ceil((now + Number(ra.slice(5)) * 1000) / 1000) * 1000;
      headers['retry-after'] = new Date(at).toUTCString();
      notBefore.set(key, at);
    } else if (ra !== 'none') {
      headers['retry-after'] = ra;
      notBefore.set(key, now + Number(ra) * 1000);
    }
    res.writeHead(code, headers);
    res.end(api ? api.error(code) : `${code} try later\n`);
    return;
  }
  if (parts[0] === 'rl') {
    notBefore.delete(key);
  }
  if (parts[0] === 'stall' && count <= n) {
    const ms = Number(url.searchParams.get('ms') || 3000);
    setTimeout(() => {
      if (!res.destroyed) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(api ? api.ok(count) : '{"late":true}\n');
      }
    }, ms);
    return;
  }
  if (parts[0] === 'sse') {
    if (count > n) {
      res.writeHead(204);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
    res.write(`retry: 300\nid: ${count}-1\ndata: event ${count}-1\n\n`);
    setTimeout(() => res.end(`id: ${count}-2\ndata: event ${count}-2\n\n`), 200);
    return;
  }
  if (parts[0] === 'page') {
    const file = path.join(here, 'pages', path.basename(url.pathname));
    if (fs.existsSync(file)) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(fs.readFileSync(file));
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('no such page\n');
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(api ? api.ok(count) : JSON.stringify({ ok: true, n: count }) + '\n');
});

// The bodies of the fake OpenAI and Anthropic endpoints, or null for any other path.
function fakeApi(pathname) {
  if (pathname.endsWith('/chat/completions')) {
    return {
      ok: (n) => JSON.stringify({
        id: `chatcmpl-record-${n}`, object: 'chat.completion', created: 1764547200, model: 'gpt-4o-mini',
        choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
      }) + '\n',
      error: (code) => JSON.stringify({
        error: { message: `${code} try later`, type: code === 429 ? 'rate_limit_exceeded' : 'server_error' },
      }) + '\n',
    };
  }
  if (pathname.endsWith('/v1/messages')) {
    return {
      ok: (n) => JSON.stringify({
        id: `msg_record_${n}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', stop_sequence: null,
        usage: { input_tokens: 5, output_tokens: 1 },
      }) + '\n',
      error: (code) => JSON.stringify({
        type: 'error', error: { type: code === 429 ? 'rate_limit_error' : 'overloaded_error', message: `${code} try later` },
      }) + '\n',
    };
  }
  return null;
}

server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`listening on 127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));

// Loopback server for recording real client exports: answers 429/503 with Retry-After, stalls
// responses past a client timeout, serves plain 200s and a test page, and saves the bodies that
// trace exporters post to it. Listens on 127.0.0.1 only. No dependencies beyond Node itself.
//
//   node server.mjs PORT OUTDIR
//
// Paths (NAME keys a per-path counter, so each scenario uses its own NAME):
//   /rl/NAME?n=K&code=429|503|408&ra=SECONDS|date:SECONDS|none
//        the first K requests get CODE with Retry-After (delay-seconds, or an HTTP-date SECONDS
//        ahead), later ones 200; each request is logged with how early it came
//   /stall/NAME?n=K&ms=M   the first K requests are answered 200 only after M ms, later ones at once
//   /ok/NAME               always 200
//   /page/NAME.html        a page from pages/NAME.html next to this file
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
  const key = url.pathname;
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
  if (parts[0] === 'rl' && count <= n) {
    const code = Number(url.searchParams.get('code') || 429);
    const ra = url.searchParams.get('ra') || '1';
    const headers = { 'content-type': 'text/plain' };
    if (ra.startsWith('date:')) {
      const at = Math.ceil((now + Number(ra.slice(5)) * 1000) / 1000) * 1000;
      headers['retry-after'] = new Date(at).toUTCString();
      notBefore.set(key, at);
    } else if (ra !== 'none') {
      headers['retry-after'] = ra;
      notBefore.set(key, now + Number(ra) * 1000);
    }
    res.writeHead(code, headers);
    res.end(`${code} try later\n`);
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
        res.end('{"late":true}\n');
      }
    }, ms);
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
  res.end(JSON.stringify({ ok: true, n: count }) + '\n');
});

server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`listening on 127.0.0.1:${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));

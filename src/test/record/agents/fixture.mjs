// The agents' fixture: a scripted model (OpenAI chat completions and responses, Anthropic messages),
// a payments service, a DynamoDB-shaped and an Azure-shaped endpoint, whose request log is the wire
// truth behind each recording. Listens on 127.0.0.1 only. No dependencies beyond Node itself.
//
//   node fixture.mjs PORT OUTDIR        (PORT 0: any free port; prints "listening on 127.0.0.1:P")
//
// Writes OUTDIR/fixture-log.jsonl (every line) and OUTDIR/by-scenario/SCENARIO.jsonl (that scenario's
// lines). Every path starts with /s/SCENARIO/, and each scenario has its own counters and ledger.
//
// Options come from the query string of each request, or from a scenario's configuration set once
// (the query wins): POST /_config/SCENARIO with a JSON object of options, e.g.
//   curl -s -XPOST localhost:P/_config/ai-timeout -d '{"tool":"charge_cart","args":"{\"cart\":\"c-1\",\"amount\":1200}","pay":"hold"}'
// Values are strings (numbers and objects are accepted and turned into strings/JSON).
//
// Scripted model
//   POST /s/S/v1/chat/completions (also .../chat/completions under any prefix; stream: true answers SSE)
//   POST /s/S/v1/responses        (OpenAI Responses API; stream: true answers SSE)
//   POST /s/S/v1/messages         (Anthropic Messages API; non-streaming)
//   It reads the conversation: if the last message is not a tool result, it calls the script's
//   next tool (a fresh call id each time: call_1, call_2, ... per scenario); if the last tool result
//   failed (its text says error/timeout/abort/fail/unavailable/reset/503/429, or is_error) and fewer
//   than `recalls` re-calls of that step were made, it calls the same tool with the same arguments
//   again; if it succeeded, the next step; when the script is done, a final text answer.
//     tool=NAME args=JSON           one step (default: none, so the model answers text at once)
//     script=[{"tool":..,"args":{..}},..]  several steps instead
//     recalls=N                     re-calls of a failed step (default 1; 0: give up at once)
//     recallargs=JSON               a re-call sends these arguments instead of the step's own
//     model=429|503|529|500 modeln=K modelra=SECONDS|date:SECONDS|ms:MILLIS|none   the first K
//                                   model requests (default 1) fail with that status; Retry-After
//                                   (default 1) as delay-seconds, an HTTP-date SECONDS ahead, or
//                                   retry-after-ms alone; model429=SECONDS is model=429&modelra=SECONDS
//     modelhold=MS modelholdn=K     the first K model requests (default 1) are answered after MS
// Payments
//   POST /s/S/pay/charge  JSON {cart, amount}: commits a charge (ledger entry) and answers 201
//     pay=hold|503|429|reset|500 payn=K   the first K charges (default 1):
//       hold  commit at once, answer only after hold=MS (default 3000), whether or not the client waits
//       503/429/500  answer that status with Retry-After ra=2 (same forms as modelra); no commit
//       reset commit after the body was read, then reset the connection (RST), no response
//     dedupe=1  a repeated Idempotency-Key replays the first result without a second commit
//               (409 while the first is still held)
//   GET /s/S/pay/cart/ID  a read: the cart; cart=hold|503|reset cartn=K carthold=MS as above
// Azure-shaped
//   POST|PUT /s/S/azure/ANY  a write, as /pay/charge, options az=hold|503|429|reset azn=K azhold=MS
//                            azra=...; answers 201 with the applied entry; GET answers 200
// DynamoDB-shaped (JSON 1.0, X-Amz-Target: DynamoDB_20120810.OP)
//   POST /s/S/dynamodb (or /s/S/dynamodb/)  PutItem, UpdateItem, DeleteItem apply a write (ledger);
//     GetItem reads; others answer {}
//     ddb=throttle|provisioned|hold|reset|500 ddbn=K (default 2) ddbop=OP (only that operation)
//       throttle     400 ThrottlingException, provisioned 400 ProvisionedThroughputExceededException
//       hold         apply at once, answer after ddbhold=MS (default 3000)
//       reset        apply, then reset the connection
// Control (not logged): GET /_log[?scenario=S] the log as JSON lines; GET /_ledger/S the ledger;
//   GET /_config/S the configuration.
//
// Log lines (JSON): {"t": epoch ms, "at": ISO, "scenario", "event": "request"|"outcome", "req": n (per
// fixture), "endpoint": model|pay|cart|azure|dynamodb|other, "n": count of that endpoint in the
// scenario, ...}. A request line has method, path, headers (the ones that matter, when present),
// bodyBytes, bodyDigest (sha256, 16 hex), and for a model request the tool call or text it answers,
// for a charge its cart and amount, for DynamoDB its operation; earlyMs when a Retry-After this
// fixture gave on that endpoint had not yet run out (how early), sinceLastMs since the endpoint's
// last answer. An outcome line has what was done: status, heldMs, committed (ledger seq), replayed,
// reset, clientGone (the client closed before the answer).
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

const port = Number(process.argv[2] || 0);
const outDir = path.resolve(process.argv[3] || '.');
fs.mkdirSync(path.join(outDir, 'by-scenario'), { recursive: true });

const HEADERS = [
  'idempotency-key', 'x-ms-client-request-id', 'amz-sdk-invocation-id', 'amz-sdk-request',
  'x-stainless-retry-count', 'x-stainless-timeout', 'x-retry-count', 'retry-count', 'x-ms-retry-count',
  'x-amz-target', 'traceparent', 'user-agent', 'mcp-session-id', 'content-type',
];

const log = [];
const scenarios = new Map();
let requests = 0;

function scenarioState(name) {
  if (!scenarios.has(name)) {
    scenarios.set(name, {
      config: {}, counters: {}, lastAnswer: {}, notBefore: {}, ledger: [], keys: new Map(), calls: 0, store: {},
    });
  }
  return scenarios.get(name);
}

function write(entry) {
  const line = JSON.stringify(entry);
  log.push(entry);
  fs.appendFileSync(path.join(outDir, 'fixture-log.jsonl'), line + '\n');
  const safe = String(entry.scenario).replace(/[^A-Za-z0-9._-]/g, '_');
  fs.appendFileSync(path.join(outDir, 'by-scenario', `${safe}.jsonl`), line + '\n');
}

function stamp(scenario, fields) {
  const t = Date.now();
  return { t, at: new Date(t).toISOString(), scenario, ...fields };
}

function readBody(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', () => resolve(Buffer.concat(chunks)));
  });
}

function parseJson(buffer) {
  try {
    return JSON.parse(buffer.toString('utf8'));
  } catch {
    return null;
  }
}

function optionString(value) {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

// The scenario's options: its configuration, then the query string.
function options(state, url) {
  const merged = { ...state.config };
  for (const [k, v] of url.searchParams) merged[k] = v;
  if (merged.model429 !== undefined && merged.model === undefined) {
    merged.model = '429';
    merged.modelra = merged.model429;
  }
  return merged;
}

// Retry-After headers for a form: SECONDS, date:SECONDS, ms:MILLIS, none; and when the wait ends.
function retryAfter(form, now) {
  if (form === 'none') return { headers: {}, until: null };
  if (form.startsWith('ms:')) {
    const ms = Number(form.slice(3));
    return { headers: { 'retry-after-ms': String(ms) }, until: now + ms };
  }
  if (form.startsWith('date:')) {
    const at = Math.ceil((now + Number(form.slice(5)) * 1000) / 1000) * 1000;
    return { headers: { 'retry-after': new Date(at).toUTCString() }, until: at };
  }
  return { headers: { 'retry-after': form }, until: now + Number(form) * 1000 };
}

function endpointOf(parts, method) {
  const rest = parts.slice(2);
  const tail = rest.join('/');
  if (method === 'POST' && (tail.endsWith('chat/completions') || tail.endsWith('responses') || tail.endsWith('messages'))) {
    return 'model';
  }
  if (rest[0] === 'pay' && rest[1] === 'charge') return 'pay';
  if (rest[0] === 'pay' && rest[1] === 'cart') return 'cart';
  if (rest[0] === 'azure') return 'azure';
  if (rest[0] === 'dynamodb') return 'dynamodb';
  return 'other';
}

function send(res, status, headers, body) {
  if (res.destroyed || res.writableEnded) return false;
  res.writeHead(status, { 'x-request-id': crypto.randomUUID(), ...headers });
  res.end(body);
  return true;
}

function json(value) {
  return JSON.stringify(value) + '\n';
}

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, 'http://127.0.0.1');
  const parts = url.pathname.split('/').filter(Boolean);
  const payload = await readBody(req);
  if (parts[0] === '_config' || parts[0] === '_ledger' || parts[0] === '_log') {
    control(req, res, url, parts, payload);
    return;
  }
  if (parts[0] !== 's' || parts.length < 2) {
    send(res, 404, { 'content-type': 'text/plain' }, 'paths start with /s/SCENARIO/\n');
    return;
  }
  const scenario = decodeURIComponent(parts[1]);
  const state = scenarioState(scenario);
  const opts = options(state, url);
  const endpoint = endpointOf(parts, req.method);
  const n = (state.counters[endpoint] || 0) + 1;
  state.counters[endpoint] = n;
  requests += 1;
  const reqNo = requests;
  const now = Date.now();
  const headers = {};
  for (const h of HEADERS) if (req.headers[h] !== undefined) headers[h] = req.headers[h];
  const entry = stamp(scenario, {
    event: 'request', req: reqNo, endpoint, n, method: req.method, path: req.url, headers,
    bodyBytes: payload.length,
    bodyDigest: payload.length ? crypto.createHash('sha256').update(payload).digest('hex').slice(0, 16) : null,
  });
  entry.t = now;
  entry.at = new Date(now).toISOString();
  if (state.notBefore[endpoint] !== undefined) {
    entry.earlyMs = Math.max(0, state.notBefore[endpoint] - now);
    delete state.notBefore[endpoint];
  }
  if (state.lastAnswer[endpoint] !== undefined) entry.sinceLastMs = now - state.lastAnswer[endpoint];
  let clientGone = false;
  res.on('close', () => {
    if (!res.writableFinished) clientGone = true;
  });
  const outcome = (fields) => {
    state.lastAnswer[endpoint] = Date.now();
    write(stamp(scenario, { event: 'outcome', req: reqNo, endpoint, n, ...fields }));
  };
  const ctx = { req, res, url, payload, state, opts, n, now, entry, outcome, gone: () => clientGone };
  switch (endpoint) {
    case 'model': return model(ctx);
    case 'pay': return writeEndpoint(ctx, 'pay', 'charge');
    case 'azure':
      if (req.method === 'GET') return readEndpoint(ctx, 'az');
      return writeEndpoint(ctx, 'az', 'azure');
    case 'cart': return readEndpoint(ctx, 'cart');
    case 'dynamodb': return dynamodb(ctx);
    default:
      write(entry);
      send(res, 404, { 'content-type': 'text/plain' }, 'unknown endpoint\n');
      outcome({ status: 404 });
  }
});

function control(req, res, url, parts, payload) {
  const scenario = parts[1] ? decodeURIComponent(parts[1]) : null;
  if (parts[0] === '_config' && scenario && req.method === 'POST') {
    const body = parseJson(payload) || {};
    const state = scenarioState(scenario);
    for (const [k, v] of Object.entries(body)) state.config[k] = optionString(v);
    send(res, 200, { 'content-type': 'application/json' }, json(state.config));
    return;
  }
  if (parts[0] === '_config' && scenario) {
    send(res, 200, { 'content-type': 'application/json' }, json(scenarioState(scenario).config));
    return;
  }
  if (parts[0] === '_ledger' && scenario) {
    send(res, 200, { 'content-type': 'application/json' }, json(scenarioState(scenario).ledger));
    return;
  }
  const only = url.searchParams.get('scenario');
  const lines = log.filter((e) => !only || e.scenario === only).map((e) => JSON.stringify(e) + '\n').join('');
  send(res, 200, { 'content-type': 'application/x-ndjson' }, lines);
}

// Applies a write to the scenario's ledger and returns its entry.
function commit(ctx, kind, detail) {
  const { state } = ctx;
  const seq = state.ledger.length + 1;
  const item = { seq, kind, at: new Date().toISOString(), req: ctx.entry.req, ...detail };
  state.ledger.push(item);
  return item;
}

function failureFor(ctx, prefix, fallbackCount) {
  const mode = ctx.opts[prefix];
  const count = Number(ctx.opts[`${prefix}n`] || fallbackCount);
  if (!mode || mode === 'ok' || ctx.n > count) return null;
  return mode;
}

function resetConnection(ctx) {
  const socket = ctx.req.socket;
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

// A status answer with Retry-After (for 429/503/5xx), logged, with no commit.
function failStatus(ctx, endpoint, status, raForm, body, contentType = 'application/json') {
  const ra = retryAfter(raForm, Date.now());
  if (ra.until !== null) ctx.state.notBefore[endpoint] = ra.until;
  send(ctx.res, status, { 'content-type': contentType, ...ra.headers }, body);
  ctx.outcome({ status, retryAfter: ra.headers });
}

function writeEndpoint(ctx, prefix, kind) {
  const { req, res, payload, state, opts, entry } = ctx;
  const body = parseJson(payload) || {};
  if (kind === 'charge') {
    entry.cart = body.cart ?? null;
    entry.amount = body.amount ?? null;
  }
  write(entry);
  const key = req.headers['idempotency-key'];
  const dedupe = opts.dedupe === '1' || opts.dedupe === 'true';
  if (dedupe && key && state.keys.has(key)) {
    const first = state.keys.get(key);
    if (first.pending) {
      send(res, 409, { 'content-type': 'application/json' }, json({ error: { message: 'a request with this Idempotency-Key is in progress' } }));
      ctx.outcome({ status: 409, replayed: false, committed: null });
      return;
    }
    send(res, first.status, { 'content-type': 'application/json', 'idempotent-replayed': 'true' }, first.body);
    ctx.outcome({ status: first.status, replayed: true, committed: null, firstSeq: first.seq });
    return;
  }
  const mode = failureFor(ctx, prefix, 1);
  const holdMs = Number(opts[prefix === 'pay' ? 'hold' : `${prefix}hold`] || 3000);
  const raForm = opts[prefix === 'pay' ? 'ra' : `${prefix}ra`] || '2';
  if (mode && /^\d{3}$/.test(mode)) {
    const status = Number(mode);
    failStatus(ctx, prefix === 'pay' ? 'pay' : 'azure', status, status === 429 || status === 503 ? raForm : 'none',
      json({ error: { message: `${status} try later`, type: status === 429 ? 'rate_limited' : 'unavailable' } }));
    return;
  }
  const detail = kind === 'charge' ? { cart: body.cart ?? null, amount: body.amount ?? null } : { path: ctx.url.pathname };
  if (key) detail.idempotencyKey = key;
  const item = commit(ctx, kind, detail);
  const status = 201;
  const answer = json(kind === 'charge'
    ? { id: `ch_${item.seq}`, status: 'captured', cart: detail.cart, amount: detail.amount, ledger_seq: item.seq }
    : { id: `item_${item.seq}`, applied: true, ledger_seq: item.seq });
  const memo = { pending: false, status, body: answer, seq: item.seq };
  if (key && dedupe) state.keys.set(key, memo);
  if (mode === 'reset') {
    resetConnection(ctx);
    ctx.outcome({ reset: true, committed: item.seq });
    return;
  }
  if (mode === 'hold') {
    memo.pending = true;
    setTimeout(() => {
      memo.pending = false;
      const gone = ctx.gone() || res.destroyed;
      send(res, status, { 'content-type': 'application/json' }, answer);
      ctx.outcome({ status, heldMs: holdMs, committed: item.seq, clientGone: gone });
    }, holdMs);
    return;
  }
  send(res, status, { 'content-type': 'application/json' }, answer);
  ctx.outcome({ status, committed: item.seq });
}

function readEndpoint(ctx, prefix) {
  const { res, opts, url, entry } = ctx;
  write(entry);
  const mode = failureFor(ctx, prefix, 1);
  const id = decodeURIComponent(url.pathname.split('/').pop());
  const answer = json(prefix === 'cart'
    ? { cart: id, items: [{ sku: 'A-1', qty: 2, price: 600 }], amount: 1200, currency: 'EUR' }
    : { id, items: ctx.state.ledger.filter((e) => e.kind === 'azure') });
  if (mode && /^\d{3}$/.test(mode)) {
    failStatus(ctx, prefix === 'cart' ? 'cart' : 'azure', Number(mode), opts[`${prefix}ra`] || '2', json({ error: { message: `${mode} try later` } }));
    return;
  }
  if (mode === 'reset') {
    resetConnection(ctx);
    ctx.outcome({ reset: true });
    return;
  }
  if (mode === 'hold') {
    const holdMs = Number(opts[`${prefix}hold`] || 3000);
    setTimeout(() => {
      const gone = ctx.gone() || res.destroyed;
      send(res, 200, { 'content-type': 'application/json' }, answer);
      ctx.outcome({ status: 200, heldMs: holdMs, clientGone: gone });
    }, holdMs);
    return;
  }
  send(res, 200, { 'content-type': 'application/json' }, answer);
  ctx.outcome({ status: 200 });
}

function dynamodb(ctx) {
  const { req, res, payload, opts, entry } = ctx;
  const target = String(req.headers['x-amz-target'] || '');
  const op = target.split('.').pop();
  const body = parseJson(payload) || {};
  entry.operation = op;
  entry.table = body.TableName ?? null;
  write(entry);
  const type = 'application/x-amz-json-1.0';
  const amzHeaders = { 'content-type': type, 'x-amzn-requestid': crypto.randomUUID() };
  const opCount = (ctx.state.counters[`dynamodb:${op}`] || 0) + 1;
  ctx.state.counters[`dynamodb:${op}`] = opCount;
  const only = opts.ddbop;
  const mode = opts.ddb && opts.ddb !== 'ok' && (!only || only === op)
    && (only ? opCount : ctx.n) <= Number(opts.ddbn || 2) ? opts.ddb : null;
  if (mode === 'throttle' || mode === 'provisioned') {
    const name = mode === 'throttle' ? 'ThrottlingException' : 'ProvisionedThroughputExceededException';
    send(res, 400, amzHeaders, json({ __type: `com.amazonaws.dynamodb.v20120810#${name}`, message: 'Rate of requests exceeds the allowed throughput.' }));
    ctx.outcome({ status: 400, error: name });
    return;
  }
  if (mode === '500') {
    send(res, 500, amzHeaders, json({ __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'Internal server error' }));
    ctx.outcome({ status: 500, error: 'InternalServerError' });
    return;
  }
  const writes = ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems'];
  const item = writes.includes(op)
    ? commit(ctx, 'dynamodb', { operation: op, table: body.TableName ?? null, key: body.Key ?? body.Item ?? null })
    : null;
  let answer = {};
  if (op === 'GetItem') answer = { Item: body.Key || {} };
  if (op === 'UpdateItem' && body.ReturnValues && body.ReturnValues !== 'NONE') {
    answer = { Attributes: { ...(body.Key || {}), seq: { N: String(item.seq) } } };
  }
  if (mode === 'reset') {
    resetConnection(ctx);
    ctx.outcome({ reset: true, committed: item ? item.seq : null, operation: op });
    return;
  }
  if (mode === 'hold') {
    const holdMs = Number(opts.ddbhold || 3000);
    setTimeout(() => {
      const gone = ctx.gone() || res.destroyed;
      send(res, 200, amzHeaders, json(answer));
      ctx.outcome({ status: 200, heldMs: holdMs, committed: item ? item.seq : null, operation: op, clientGone: gone });
    }, holdMs);
    return;
  }
  send(res, 200, amzHeaders, json(answer));
  ctx.outcome({ status: 200, committed: item ? item.seq : null, operation: op });
}

// ---- scripted model ----

const FAILED = /error|timeout|timed out|abort|fail|unavailable|reset|refused|\b503\b|\b429\b/i;

function script(opts) {
  if (opts.script) {
    const steps = JSON.parse(opts.script);
    return steps.map((s) => ({ tool: s.tool, args: typeof s.args === 'string' ? s.args : JSON.stringify(s.args || {}) }));
  }
  if (opts.tool) return [{ tool: opts.tool, args: opts.args || '{}' }];
  return [];
}

function textOf(content) {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((c) => (typeof c === 'string' ? c : c.text ?? c.output ?? textOf(c.content) ?? JSON.stringify(c))).join(' ');
  return JSON.stringify(content);
}

// The conversation as a list of turns: {kind: 'tool-result', failed, text} or {kind: 'other'}.
function turns(api, body) {
  const list = [];
  if (api === 'chat') {
    for (const m of body.messages || []) {
      if (m.role === 'tool') list.push({ kind: 'tool-result', text: textOf(m.content) });
      else list.push({ kind: 'other' });
    }
  } else if (api === 'responses') {
    const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : body.input || [];
    for (const item of input) {
      if (item.type === 'function_call_output') list.push({ kind: 'tool-result', text: textOf(item.output) });
      else list.push({ kind: 'other' });
    }
  } else {
    for (const m of body.messages || []) {
      const results = Array.isArray(m.content) ? m.content.filter((c) => c.type === 'tool_result') : [];
      if (m.role === 'user' && results.length) {
        for (const r of results) list.push({ kind: 'tool-result', text: textOf(r.content), isError: r.is_error === true });
      } else list.push({ kind: 'other' });
    }
  }
  for (const t of list) if (t.kind === 'tool-result') t.failed = t.isError === true || FAILED.test(t.text);
  return list;
}

// What the model does next: {tool, args} or {text}.
function decide(steps, list, opts) {
  const recalls = Number(opts.recalls ?? 1);
  const results = list.filter((t) => t.kind === 'tool-result');
  const done = results.filter((t) => !t.failed).length;
  const last = list[list.length - 1];
  if (!last || last.kind !== 'tool-result') {
    if (done < steps.length) return { ...steps[done], why: 'next step' };
    return { text: 'Done.', why: 'script done' };
  }
  if (last.failed) {
    let trailing = 0;
    for (let i = results.length - 1; i >= 0 && results[i].failed; i--) trailing++;
    if (trailing <= recalls && done < steps.length) {
      const args = opts.recallargs ? optionString(opts.recallargs) : steps[done].args;
      return { ...steps[done], args, why: `re-call after failure ${trailing}` };
    }
    return { text: 'The tool failed; I could not complete the request.', why: 'gave up' };
  }
  if (done < steps.length) return { ...steps[done], why: 'next step' };
  return { text: 'Done: the cart is charged.', why: 'script done' };
}

function model(ctx) {
  const { url, payload, state, opts, entry, res } = ctx;
  const body = parseJson(payload) || {};
  const api = url.pathname.endsWith('/responses') ? 'responses' : url.pathname.endsWith('/messages') ? 'anthropic' : 'chat';
  entry.api = api;
  entry.stream = body.stream === true;
  const failing = opts.model && ctx.n <= Number(opts.modeln || 1) ? Number(opts.model) : null;
  if (failing) {
    write(entry);
    failStatus(ctx, 'model', failing, opts.modelra || '1', modelError(api, failing));
    return;
  }
  const list = turns(api, body);
  const next = decide(script(opts), list, opts);
  if (next.tool) {
    state.calls += 1;
    next.id = api === 'anthropic' ? `toolu_${state.calls}` : `call_${state.calls}`;
  }
  entry.messages = list.length;
  entry.answer = next.tool ? { tool: next.tool, args: next.args, callId: next.id, why: next.why } : { text: next.text, why: next.why };
  write(entry);
  const answer = () => {
    if (entry.stream) {
      streamModel(res, api, next, body, ctx.n);
      ctx.outcome({ status: 200, stream: true });
      return;
    }
    send(res, 200, { 'content-type': 'application/json' }, json(modelBody(api, next, body, ctx.n)));
    ctx.outcome({ status: 200 });
  };
  const holdMs = Number(opts.modelhold || 0);
  if (holdMs && ctx.n <= Number(opts.modelholdn || 1)) {
    setTimeout(() => {
      const gone = ctx.gone() || res.destroyed;
      if (!gone) answer();
      else ctx.outcome({ status: 200, heldMs: holdMs, clientGone: true });
    }, holdMs);
    return;
  }
  answer();
}

function modelError(api, status) {
  if (api === 'anthropic') {
    const type = status === 429 ? 'rate_limit_error' : status === 529 ? 'overloaded_error' : 'api_error';
    return json({ type: 'error', error: { type, message: `${status} try later` } });
  }
  return json({ error: { message: `${status} try later`, type: status === 429 ? 'rate_limit_exceeded' : 'server_error', code: null, param: null } });
}

const usage = { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 };

function modelBody(api, next, body, n) {
  const modelName = body.model || 'scripted';
  const created = Math.floor(Date.now() / 1000);
  if (api === 'chat') {
    const message = next.tool
      ? { role: 'assistant', content: null, tool_calls: [{ id: next.id, type: 'function', function: { name: next.tool, arguments: next.args } }] }
      : { role: 'assistant', content: next.text };
    return {
      id: `chatcmpl-${n}`, object: 'chat.completion', created, model: modelName,
      choices: [{ index: 0, message, logprobs: null, finish_reason: next.tool ? 'tool_calls' : 'stop' }], usage,
    };
  }
  if (api === 'responses') {
    const output = next.tool
      ? [{ type: 'function_call', id: `fc_${next.id}`, call_id: next.id, name: next.tool, arguments: next.args, status: 'completed' }]
      : [{ type: 'message', id: `msg_${n}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: next.text, annotations: [] }] }];
    return {
      id: `resp_${n}`, object: 'response', created_at: created, status: 'completed', model: modelName, output,
      parallel_tool_calls: false, tool_choice: 'auto', tools: [], error: null, incomplete_details: null,
      usage: { input_tokens: 20, output_tokens: 10, total_tokens: 30, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
    };
  }
  const content = next.tool
    ? [{ type: 'tool_use', id: next.id, name: next.tool, input: JSON.parse(next.args) }]
    : [{ type: 'text', text: next.text }];
  return {
    id: `msg_${n}`, type: 'message', role: 'assistant', model: modelName, content,
    stop_reason: next.tool ? 'tool_use' : 'end_turn', stop_sequence: null, usage: { input_tokens: 20, output_tokens: 10 },
  };
}

function streamModel(res, api, next, body, n) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-request-id': crypto.randomUUID() });
  const modelName = body.model || 'scripted';
  const created = Math.floor(Date.now() / 1000);
  if (api === 'chat') {
    const chunk = (delta, finish = null, extra = {}) => `data: ${JSON.stringify({
      id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created, model: modelName,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...extra,
    })}\n\n`;
    if (next.tool) {
      res.write(chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: next.id, type: 'function', function: { name: next.tool, arguments: '' } }] }));
      res.write(chunk({ tool_calls: [{ index: 0, function: { arguments: next.args } }] }));
      res.write(chunk({}, 'tool_calls'));
    } else {
      res.write(chunk({ role: 'assistant', content: '' }));
      res.write(chunk({ content: next.text }));
      res.write(chunk({}, 'stop'));
    }
    if (body.stream_options && body.stream_options.include_usage) {
      res.write(`data: ${JSON.stringify({ id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created, model: modelName, choices: [], usage })}\n\n`);
    }
    res.end('data: [DONE]\n\n');
    return;
  }
  if (api === 'responses') {
    const full = modelBody('responses', next, body, n);
    const event = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    let seq = 0;
    res.write(event('response.created', { sequence_number: seq++, response: { ...full, status: 'in_progress', output: [] } }));
    full.output.forEach((item, i) => {
      res.write(event('response.output_item.added', { sequence_number: seq++, output_index: i, item: { ...item, status: 'in_progress' } }));
      res.write(event('response.output_item.done', { sequence_number: seq++, output_index: i, item }));
    });
    res.end(event('response.completed', { sequence_number: seq++, response: full }));
    return;
  }
  const full = modelBody('anthropic', next, body, n);
  const event = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  res.write(event('message_start', { message: { ...full, content: [], stop_reason: null } }));
  full.content.forEach((block, i) => {
    if (block.type === 'tool_use') {
      res.write(event('content_block_start', { index: i, content_block: { ...block, input: {} } }));
      res.write(event('content_block_delta', { index: i, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } }));
    } else {
      res.write(event('content_block_start', { index: i, content_block: { type: 'text', text: '' } }));
      res.write(event('content_block_delta', { index: i, delta: { type: 'text_delta', text: block.text } }));
    }
    res.write(event('content_block_stop', { index: i }));
  });
  res.write(event('message_delta', { delta: { stop_reason: full.stop_reason, stop_sequence: null }, usage: { output_tokens: 10 } }));
  res.end(event('message_stop', {}));
}

// Idle connections are left for the clients to close (their pools time out sooner), so that the
// fixture never closes a connection that a client is about to reuse.
server.keepAliveTimeout = 65000;
server.headersTimeout = 66000;
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`listening on 127.0.0.1:${server.address().port}\n`);
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

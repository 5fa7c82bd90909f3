// One client scenario per process, run under telemetry.mjs:
//   RECORD_OUT=FILE node --experimental-loader=@opentelemetry/instrumentation/hook.mjs \
//     --import ./telemetry.mjs scenarios.mjs CASE http://127.0.0.1:PORT
import { trace } from '@opentelemetry/api';
import Anthropic from '@anthropic-ai/sdk';
import axios from 'axios';
import axiosRetry, { isNetworkOrIdempotentRequestError } from 'axios-retry';
import got from 'got';
import ky from 'ky';
import OpenAI from 'openai';
import { Agent, RetryAgent, request } from 'undici';

const [scenario, base] = process.argv.slice(2);
const tracer = trace.getTracer('record');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const order = JSON.stringify({ sku: 'A-1', qty: 1 });

function inParent(fn) {
  return tracer.startActiveSpan(scenario, async (span) => {
    try {
      return await fn();
    } finally {
      span.end();
    }
  });
}

function retryAfterMs(value) {
  if (value === null) return 100;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  return Math.max(0, Date.parse(value) - Date.now()) + 50;
}

// A manual fetch retry loop: re-sends on 429/503 (after Retry-After when honour is set, else 100 ms)
// and on a timeout (after 200 ms); between attempts it may run other requests.
async function fetchLoop(url, { honour, attempts = 3, init = {}, timeoutMs, between } = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      const signal = timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined;
      const response = await fetch(url, { ...init, signal });
      await response.arrayBuffer();
      if ((response.status === 429 || response.status === 503) && attempt < attempts) {
        const wait = honour ? retryAfterMs(response.headers.get('retry-after')) : 100;
        if (between) await between(attempt);
        await sleep(wait);
        continue;
      }
      return response.status;
    } catch (error) {
      if (attempt >= attempts) return String(error.name);
      await sleep(200);
    }
  }
}

const gotTimeoutPost = (key) => got.post(`${base}/stall/${scenario}?n=1&ms=2500`, {
  body: order,
  headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
  timeout: { request: 1000 },
  retry: { limit: 1, methods: ['POST'], calculateDelay: ({ computedValue }) => (computedValue ? 200 : 0) },
}).text();

// The SDKs' own clients pointed at the loopback server: the scenario's path is the base URL and its
// query the default query, so /rl/NAME/chat/completions?n=1&... reaches the server's fake API.
const openai = (route, query, options = {}) => new OpenAI({
  apiKey: 'sk-record', baseURL: `${base}/${route}/${scenario}/v1`, defaultQuery: query, ...options,
});
const chat = (client) => client.chat.completions.create({
  model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'ping' }],
}).then((completion) => completion.id);
const anthropic = (route, query, options = {}) => new Anthropic({
  apiKey: 'sk-ant-record', baseURL: `${base}/${route}/${scenario}`, defaultQuery: query, ...options,
});
const message = (client) => client.messages.create({
  model: 'claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'ping' }],
}).then((reply) => reply.id);

// axios with axios-retry: the default delay honours Retry-After; `delay` replaces it.
function axiosClient({ retries = 2, delay, timeoutPosts = false } = {}) {
  const client = axios.create({ timeout: timeoutPosts ? 1000 : 0 });
  axiosRetry(client, {
    retries,
    ...(delay ? { retryDelay: () => delay } : {}),
    ...(timeoutPosts ? { shouldResetTimeout: true, retryCondition: (e) => e.code === 'ECONNABORTED' || isNetworkOrIdempotentRequestError(e) } : {}),
  });
  return client;
}
const axiosText = (promise) => promise.then((r) => r.status, (e) => e.code ?? e.message);
const kyText = (promise) => promise.then((text) => text.trim(), (e) => e.name);

// undici's RetryAgent over an Agent: its default retry waits for Retry-After; `retry` replaces that.
function retryAgent(options) {
  return new RetryAgent(new Agent({ headersTimeout: 1000 }), { minTimeout: 100, maxRetries: 2, ...options });
}
async function undiciText(url, options) {
  try {
    const response = await request(url, options);
    await response.body.text();
    return response.statusCode;
  } catch (error) {
    return error.code ?? error.message;
  }
}
const fixedDelay = (ms) => (err, { state, opts }, cb) => {
  const { statusCodes, maxRetries } = opts.retryOptions;
  if (!statusCodes.includes(err.statusCode) || state.counter > maxRetries) return cb(err);
  setTimeout(() => cb(null), ms);
};

const cases = {
  'got-honoured-429-parent': () => inParent(() => got(`${base}/rl/${scenario}?n=1&code=429&ra=1`).text()),
  'got-honoured-429-root': () => got(`${base}/rl/${scenario}?n=1&code=429&ra=1`).text(),
  'got-honoured-503-http-date': () => inParent(() => got(`${base}/rl/${scenario}?n=1&code=503&ra=date:2`).text()),
  'got-post-timeout-keyless': () => inParent(() => gotTimeoutPost(null)),
  'got-post-timeout-keyed': () => inParent(() => gotTimeoutPost('order-7f3a-0002')),
  'fetch-ignored-429': () => inParent(() => fetchLoop(`${base}/rl/${scenario}?n=2&code=429&ra=2`, { honour: false })),
  'fetch-ignored-503-http-date': () => inParent(() => fetchLoop(`${base}/rl/${scenario}?n=1&code=503&ra=date:2`, { honour: false })),
  'fetch-honoured-interleaved': () => inParent(() => fetchLoop(`${base}/rl/${scenario}?n=2&code=503&ra=1`, {
    honour: true,
    between: async (attempt) => {
      await (await fetch(`${base}/ok/${scenario}-profile?after=${attempt}`)).arrayBuffer();
      await (await fetch(`${base}/ok/${scenario}-config?after=${attempt}`)).arrayBuffer();
    },
  })),
  'fetch-ignored-interleaved': () => inParent(() => fetchLoop(`${base}/rl/${scenario}?n=1&code=429&ra=2`, {
    honour: false,
    between: async () => {
      await (await fetch(`${base}/ok/${scenario}-profile`)).arrayBuffer();
    },
  })),
  'fetch-polling': () => inParent(async () => {
    for (let i = 0; i < 5; i++) {
      await (await fetch(`${base}/ok/notifications`)).arrayBuffer();
      await sleep(200);
    }
  }),
  'fetch-polling-root': async () => {
    for (let i = 0; i < 3; i++) {
      await (await fetch(`${base}/ok/notifications-root`)).arrayBuffer();
      await sleep(200);
    }
  },
  'fetch-concurrent': () => inParent(() => Promise.all([1, 2].map(async () => {
    await (await fetch(`${base}/ok/${scenario}`)).arrayBuffer();
  }))),
  'fetch-concurrent-503': () => inParent(() => Promise.all([1, 2].map(() => fetchLoop(`${base}/rl/${scenario}?n=2&code=503&ra=1`, {
    honour: true,
  })))),
  'fetch-post-timeout-keyless': () => inParent(() => fetchLoop(`${base}/stall/${scenario}?n=1&ms=2500`, {
    attempts: 2, timeoutMs: 1000,
    init: { method: 'POST', body: order, headers: { 'content-type': 'application/json' } },
  })),
  'openai-honoured-429': () => inParent(() => chat(openai('rl', { n: 1, code: 429, ra: 1 }))),
  'openai-honoured-503-retry-after-ms': () => inParent(() => chat(openai('rl', { n: 1, code: 503, ra: 'ms:700' }))),
  'openai-timeout-keyless': () => inParent(() => chat(openai('stall', { n: 1, ms: 2500 }, { timeout: 1000, maxRetries: 1 }))),
  'openai-timeout-keyless-root': () => chat(openai('stall', { n: 1, ms: 2500 }, { timeout: 1000, maxRetries: 1 })),
  'openai-timeout-keyed': () => inParent(() => openai('stall', { n: 1, ms: 2500 }, { timeout: 1000, maxRetries: 1 })
    .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'ping' }] },
      { headers: { 'Idempotency-Key': 'chat-7f3a-0004' } }).then((completion) => completion.id)),
  'anthropic-honoured-429-root': () => message(anthropic('rl', { n: 1, code: 429, ra: 1 })),
  'anthropic-exhausted-503-root': () => message(anthropic('rl', { n: 3, code: 503, ra: 1 })).catch((e) => `${e.status} ${e.name}`),
  'anthropic-timeout-keyless': () => inParent(() => message(anthropic('stall', { n: 1, ms: 2500 }, { timeout: 1000, maxRetries: 1 }))),
  'axios-retry-honoured-429': () => inParent(() => axiosText(axiosClient().get(`${base}/rl/${scenario}?n=1&code=429&ra=1`))),
  'axios-retry-ignored-503': () => inParent(() => axiosText(axiosClient({ delay: 100 }).get(`${base}/rl/${scenario}?n=2&code=503&ra=2`))),
  'axios-retry-post-timeout-keyless': () => inParent(() => axiosText(axiosClient({ retries: 1, delay: 200, timeoutPosts: true })
    .post(`${base}/stall/${scenario}?n=1&ms=2500`, order, { headers: { 'content-type': 'application/json' } }))),
  'ky-honoured-503': () => inParent(() => kyText(ky.get(`${base}/rl/${scenario}?n=1&code=503&ra=1`, { retry: 2 }).text())),
  'ky-honoured-429-http-date': () => inParent(() => kyText(ky.get(`${base}/rl/${scenario}?n=1&code=429&ra=date:2`, { retry: 2 }).text())),
  'ky-ignored-429': () => inParent(() => kyText(ky.get(`${base}/rl/${scenario}?n=1&code=429&ra=2`, {
    retry: { limit: 2, afterStatusCodes: [] },
  }).text())),
  'ky-post-timeout-keyless': () => inParent(() => kyText(ky.post(`${base}/stall/${scenario}?n=1&ms=2500`, {
    body: order, headers: { 'content-type': 'application/json' }, timeout: 1000,
    retry: { limit: 1, methods: ['post'], retryOnTimeout: true },
  }).text())),
  'undici-retryagent-honoured-429': () => inParent(() => undiciText(`${base}/rl/${scenario}?n=1&code=429&ra=1`, {
    dispatcher: retryAgent(),
  })),
  'undici-retryagent-honoured-503-http-date': () => inParent(() => undiciText(`${base}/rl/${scenario}?n=1&code=503&ra=date:2`, {
    dispatcher: retryAgent(),
  })),
  'undici-retryagent-ignored-503': () => inParent(() => undiciText(`${base}/rl/${scenario}?n=2&code=503&ra=2`, {
    dispatcher: retryAgent({ retry: fixedDelay(100) }),
  })),
  'undici-retryagent-post-timeout-keyless': () => inParent(() => undiciText(`${base}/stall/${scenario}?n=1&ms=2500`, {
    method: 'POST', body: order, headers: { 'content-type': 'application/json' },
    dispatcher: retryAgent({ methods: ['POST'], errorCodes: ['UND_ERR_HEADERS_TIMEOUT'], minTimeout: 200 }),
  })),
};

const run = cases[scenario];
if (!run) throw new Error(`unknown scenario ${scenario}`);
console.log(scenario, await run());
await globalThis.recordShutdown();

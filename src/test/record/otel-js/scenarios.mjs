// One client scenario per process, run under telemetry.mjs:
//   RECORD_OUT=FILE node --experimental-loader=@opentelemetry/instrumentation/hook.mjs \
//     --import ./telemetry.mjs scenarios.mjs CASE http://127.0.0.1:PORT
import { trace } from '@opentelemetry/api';
import got from 'got';

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
  'fetch-post-timeout-keyless': () => inParent(() => fetchLoop(`${base}/stall/${scenario}?n=1&ms=2500`, {
    attempts: 2, timeoutMs: 1000,
    init: { method: 'POST', body: order, headers: { 'content-type': 'application/json' } },
  })),
};

const run = cases[scenario];
if (!run) throw new Error(`unknown scenario ${scenario}`);
console.log(scenario, await run());
await globalThis.recordShutdown();

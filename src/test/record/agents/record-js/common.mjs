// What every scenario shares: the fixture's paths, a scenario's fixture options, and the two tools'
// HTTP calls (charge_cart POSTs the fixture's payments endpoint, get_cart GETs a cart), each with a
// 1 s AbortSignal timeout, as an agent's tool would make them.
import crypto from 'node:crypto';
import http from 'node:http';

export const CART = { cart: 'c-1', amount: 1200 };

// Sets the scenario's options in the fixture (POST /_config/SCENARIO).
// A connection of its own, closed after the answer.
export function configure(base, scenario, options) {
  return new Promise((resolve, reject) => {
    const request = http.request(`${base}/_config/${scenario}`, { method: 'POST', agent: false }, (response) => {
      response.resume();
      response.on('end', () => (response.statusCode === 200 ? resolve() : reject(new Error(`fixture config: ${response.statusCode}`))));
    });
    request.on('error', reject);
    request.end(JSON.stringify(options));
  });
}

// An Idempotency-Key derived from the tool's arguments: the same arguments give the same key.
export function keyFor(args) {
  const canonical = JSON.stringify(Object.keys(args).sort().map((k) => [k, args[k]]));
  return `charge-${crypto.createHash('sha256').update(canonical).digest('hex').slice(0, 16)}`;
}

export function tools(base, scenario, { keyed = false, timeoutMs = 1000 } = {}) {
  return {
    async chargeCart(args) {
      const headers = { 'content-type': 'application/json' };
      if (keyed) headers['idempotency-key'] = keyFor(args);
      const response = await fetch(`${base}/s/${scenario}/pay/charge`, {
        method: 'POST', headers, body: JSON.stringify(args), signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`charge failed: HTTP ${response.status} ${text.trim()}`);
      return JSON.parse(text);
    },
    async getCart({ cart }) {
      const response = await fetch(`${base}/s/${scenario}/pay/cart/${encodeURIComponent(cart)}`, {
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`get_cart failed: HTTP ${response.status} ${text.trim()}`);
      return JSON.parse(text);
    },
  };
}

// Ends the process after the spans are written, whatever the scenario left pending.
export async function finish(result) {
  process.stdout.write(`${JSON.stringify(result)}\n`);
  await globalThis.recordShutdown();
  process.exit(0);
}

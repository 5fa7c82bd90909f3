// The client of ServeNodeRecipeIT: waits before its first request, then GETs the URL with node:http and, on a
// 503, sends it again after 200 ms ("early") or after Retry-After's seconds ("honour").
// Arguments: URL, mode, wait before the first request in milliseconds.
const http = require('node:http');

const [url, mode, delay] = process.argv.slice(2);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const get = () => new Promise((resolve, reject) => {
  http.get(url, (res) => {
    res.resume();
    res.on('end', () => resolve(res));
  }).on('error', reject);
});

(async () => {
  await sleep(Number(delay));
  for (let attempt = 0; attempt < 3; attempt++) {
    const res = await get();
    if (res.statusCode !== 503) {
      return;
    }
    await sleep(mode === 'honour' ? Number(res.headers['retry-after'] || '1') * 1000 : 200);
  }
  throw new Error('still 503 after three attempts');
})();

// Records every scenario of scenarios.mjs into OUTDIR/otel-js/CASE.json.
//   node record.mjs OUTDIR PORT [CASE...]    (server.mjs must already listen on 127.0.0.1:PORT)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const [outDir, port = '8765', ...only] = process.argv.slice(2);
const dir = path.join(path.resolve(outDir), 'otel-js');
fs.mkdirSync(dir, { recursive: true });
const scenarios = [
  'got-honoured-429-parent', 'got-honoured-429-root', 'got-honoured-503-http-date', 'got-post-timeout-keyless', 'got-post-timeout-keyed',
  'fetch-ignored-429', 'fetch-ignored-503-http-date', 'fetch-honoured-interleaved', 'fetch-ignored-interleaved', 'fetch-polling', 'fetch-polling-root',
  'fetch-concurrent', 'fetch-post-timeout-keyless',
  'fetch-concurrent-503',
  'openai-honoured-429', 'openai-honoured-503-retry-after-ms', 'openai-timeout-keyless', 'openai-timeout-keyless-root', 'openai-timeout-keyed',
  'anthropic-honoured-429-root', 'anthropic-exhausted-503-root', 'anthropic-timeout-keyless',
  'axios-retry-honoured-429', 'axios-retry-ignored-503', 'axios-retry-post-timeout-keyless',
  'ky-honoured-503', 'ky-honoured-429-http-date', 'ky-ignored-429', 'ky-post-timeout-keyless',
  'undici-retryagent-honoured-429', 'undici-retryagent-honoured-503-http-date', 'undici-retryagent-ignored-503', 'undici-retryagent-post-timeout-keyless',
];
for (const scenario of only.length ? only : scenarios) {
  const env = { ...process.env, RECORD_OUT: path.join(dir, `${scenario}.json`) };
  execFileSync(process.execPath, [
    '--experimental-loader=@opentelemetry/instrumentation/hook.mjs', '--import', './telemetry.mjs',
    'scenarios.mjs', scenario, `http://127.0.0.1:${port}`,
  ], { env, stdio: 'inherit' });
}

// Sets each scenario's options in the fixture (its name there is PRODUCER-CASE) and runs it in its own process under telemetry.mjs, into OUTDIR/PRODUCER/CASE.json.
//   node record.mjs OUTDIR PORT [PRODUCER[/CASE]...]   (fixture.mjs must already listen on 127.0.0.1:PORT)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cases as all } from './cases.mjs';
import { configure } from './common.mjs';

export const producers = {
  'ai-sdk': { script: 'ai-sdk.mjs', service: 'charge-agent-ai-sdk' },
  'aws-sdk-js': { script: 'aws.mjs', service: 'orders-aws-sdk' },
  'aws-sdk-js-otel': { script: 'aws.mjs', service: 'orders-aws-sdk', env: { RECORD_AWS: '1' } },
  'langgraph-js': { script: 'langgraph.mjs', service: 'charge-agent-langgraph' },
  'openai-agents-js': { script: 'openai-agents.mjs', service: 'charge-agent-openai-agents' },
  'anthropic-js': { script: 'anthropic.mjs', service: 'charge-agent-anthropic', env: { RECORD_HTTP: '0' } },
  'ai-sdk-mcp': { script: 'ai-sdk-mcp.mjs', service: 'charge-agent-ai-sdk-mcp' },
  'mcp-js': { script: 'mcp.mjs', service: 'charge-agent-mcp' },
  'azure-core-js': { script: 'azure.mjs', service: 'charges-azure-core', env: { RECORD_AZURE: '1' } },
};

const [outDir, port = '8790', ...only] = process.argv.slice(2);
const base = `http://127.0.0.1:${port}`;
const wanted = only.length ? only : Object.keys(producers);
for (const item of wanted) {
  const [producer, one] = item.split('/');
  const spec = producers[producer];
  const cases = all[producer];
  const dir = path.join(path.resolve(outDir), producer);
  fs.mkdirSync(dir, { recursive: true });
  for (const name of one ? [one] : Object.keys(cases)) {
    const env = { ...process.env, RECORD_OUT: path.join(dir, `${name}.json`), RECORD_SERVICE: spec.service, ...(spec.env || {}) };
    process.stdout.write(`${producer}/${name}: `);
    await configure(base, `${producer}-${name}`, cases[name]);
    execFileSync(process.execPath, [
      '--disable-warning=ExperimentalWarning', '--experimental-loader=@opentelemetry/instrumentation/hook.mjs', '--import', './telemetry.mjs',
      spec.script, name, base, `${producer}-${name}`,
    ], { env, stdio: 'inherit' });
  }
}

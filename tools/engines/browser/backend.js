// A Backend (see ../runner.js) that runs an engine module with the onnxruntime-web API
// shape inside headless Debian Chromium, driven by playwright-core (never a downloaded
// browser). `spec` says what to serve and how to configure the engine in the page:
//   libDir       folder served at /lib/ (the engine's .mjs and .wasm files)
//   moduleFile   the ES module under libDir to import
//   webgpu       require a WebGPU adapter and name it in the description
//   describe(info, placement)   -> description text; info: {version, browser, adapter, crossOriginIsolated};
//                                  placement: the session's placement after a run (twinrt-web WebGPU), else null
//   configure(options) in page  -> runs in the page after the import (window.engineApi is the module)
//   sessionOptions              -> what InferenceSession.create gets
'use strict';
const fs = require('fs');
const path = require('path');
const { unavailable, asModelError, requirePackage } = require('../errors');
const { arrayTypeFor } = require('../../npy');
const { startServer } = require('./static_server');

const CHROMIUM = process.env.TWINRT_CHROMIUM || '/usr/bin/chromium';
// docs/engines.md: headless Debian Chromium with a software WebGPU adapter.
const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader'];

const encode = (feeds) => Object.fromEntries(Object.entries(feeds).map(([n, t]) =>
  [n, { type: t.type, dims: t.dims, b64: Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength).toString('base64') }]));

function decode(t) {
  const bytes = Buffer.from(t.b64, 'base64');
  const Ctor = arrayTypeFor(t.type);
  return { type: t.type, dims: t.dims, data: new Ctor(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)) };
}

// Base64 characters per message (a multiple of 4, so pieces join): one CDP message of about
// 200 MB closes the page.
const PIECE = 1 << 25;

async function sendFeeds(page, feeds) {
  await page.evaluate(() => window.twinrtEngine.stage());
  for (const [name, t] of Object.entries(encode(feeds)))
    for (let at = 0; at === 0 || at < t.b64.length; at += PIECE)
      await page.evaluate((a) => window.twinrtEngine.stage(...a), [name, t.type, t.dims, t.b64.slice(at, at + PIECE)]);
}

async function launch() {
  if (!fs.existsSync(CHROMIUM))
    throw unavailable(`chromium not found at ${CHROMIUM}; run: apt-get install chromium (or set TWINRT_CHROMIUM)`);
  const { chromium } = requirePackage('playwright-core');
  try {
    // launch() gives every browser a fresh temporary profile (--user-data-dir).
    return await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS, timeout: 60000 });
  } catch (e) {
    throw unavailable(`chromium at ${CHROMIUM} did not start: ${e.message.split('\n')[0]}`);
  }
}

async function start(options, spec) {
  let modelPath = null;
  const { server, url } = await startServer(
    { files: { '/': path.join(__dirname, 'page.html'), '/engine/page.js': path.join(__dirname, 'page.js') },
      dirs: { '/lib/': spec.libDir } },
    () => modelPath);
  const browser = await launch().catch((e) => { server.close(); throw e; });
  const close = async () => {
    await browser.close().catch(() => {});
    server.close();
  };
  try {
    const page = await browser.newPage();
    page.on('console', (m) => process.stderr.write(`[page ${m.type()}] ${m.text()}\n`));
    page.on('pageerror', (e) => process.stderr.write(`[page error] ${e.message}\n`));
    await page.goto(url + '/');
    await page.waitForFunction(() => window.twinrtEngineReady === true);
    const info = await page.evaluate(([m, g]) => window.twinrtEngine.start(m, g), [`/lib/${spec.moduleFile}`, !!spec.webgpu]);
    if (spec.webgpu && !info.adapter)
      throw unavailable(`chromium offers no WebGPU adapter (${info.hasGpu ? 'navigator.gpu gave none' : 'no navigator.gpu'}); ` +
                        `it needs --enable-unsafe-webgpu --use-webgpu-adapter=swiftshader and a Chromium with SwiftShader`);
    await page.evaluate(spec.configure, options);
    info.browser = browser.version();
    const description = spec.describe(info, null);
    return {
      description,
      async load(model) {
        modelPath = model;
        let names;
        try {
          names = await page.evaluate((o) => window.twinrtEngine.load(o), spec.sessionOptions);
        } catch (e) {
          throw asModelError(new Error(pageErrorText(e)));
        }
        const loaded = {
          ...names,
          description,  // where the nodes ran is known after a run: then it names that
          async run(feeds, outputNames) {
            const out = await sendFeeds(page, feeds).then(() => page.evaluate((o) => window.twinrtEngine.run(o), outputNames))
              .catch((e) => { throw new Error(pageErrorText(e)); });
            if (out.placement) loaded.description = spec.describe(info, out.placement);
            return Object.fromEntries(Object.entries(out.tensors).map(([n, t]) => [n, decode(t)]));
          },
          time: (feeds, runs) => sendFeeds(page, feeds).then(() => page.evaluate((r) => window.twinrtEngine.time(r), runs))
            .catch((e) => { throw new Error(pageErrorText(e)); }),
          async close() {},
        };
        return loaded;
      },
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}

// "google swiftshader": the adapter's info fields that are set.
const adapterName = (a) => [a.vendor, a.architecture, a.device, a.description].filter(Boolean).join(' ') || 'unnamed adapter';

// playwright wraps the page's error as "page.evaluate: Error: <text>\n    at ..."; keep the text.
function pageErrorText(e) {
  const first = String(e.message || e).split('\n')[0];
  return first.replace(/^page\.evaluate: (Error: )?/, '');
}

module.exports = { start, adapterName };

// "twinrt-wasm" / "twinrt-wasm-ref" (Node.js), "twinrt-browser" / "twinrt-browser-ref" and
// "twinrt-webgpu" / "twinrt-webgpu-exact" (headless Chromium): twinrt's own WebAssembly package
// (js/, npm name twinrt-web) behind the onnxruntime-web API shape, in default, exact or reference
// mode. With the native "twinrt-ref" engine, `twinrt compare MODEL --engines
// twinrt-ref,twinrt-wasm-ref` shows the bit-identity directly.
'use strict';
const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');
const { unavailable, TOOLS_DIR } = require('../errors');
const { ortSessionOptions, openSession } = require('../ort_api');
const browser = require('../browser/backend');

const PACKAGE_DIR = process.env.TWINRT_WEB_DIR || path.resolve(TOOLS_DIR, '..', 'js');
const BUILD_HINT = 'run: bash scripts/build-wasm.sh';

function checkBuilt() {
  if (!fs.existsSync(path.join(PACKAGE_DIR, 'package.json')))
    throw unavailable(`twinrt-web package not found at ${PACKAGE_DIR} (set TWINRT_WEB_DIR)`);
  const dist = path.join(PACKAGE_DIR, 'dist');
  if (!fs.existsSync(dist) || !fs.readdirSync(dist).some((v) => fs.existsSync(path.join(dist, v, 'twinrt.wasm'))))
    throw unavailable(`twinrt-web has no WebAssembly build in ${dist}; ${BUILD_HINT}`);
  return JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')).version;
}

const threadText = (n) => (n > 0 ? `${n} thread${n > 1 ? 's' : ''}` : 'default threads');
const variantText = (r) => (r ? `${r.variant} build` : 'WASM');

async function startNode(options, mode) {
  const version = checkBuilt();
  const twinrt = await import(pathToFileURL(path.join(PACKAGE_DIR, 'lib', 'node.js')).href);
  const threads = options.threads >= 0 ? options.threads : 1;
  twinrt.env.wasm.numThreads = threads;
  const sessionOptions = ortSessionOptions(options, { mode, intraOpNumThreads: threads });
  const describe = (runtime) =>
    `twinrt-web ${version} ${variantText(runtime)} under Node.js ${process.versions.node}, mode ${mode}, ` +
    threadText(runtime ? runtime.threads : threads);
  return {
    description: describe(null),
    async load(modelPath) {
      const model = await openSession(twinrt, modelPath, sessionOptions);
      return { ...model, description: describe(model.runtime) };
    },
    async close() {},
  };
}

// Where a WebGPU run put its nodes: "webgpu: 52 of 55 nodes on the GPU; on wasm: Resize 'up1', ...".
function placementText(placement) {
  if (!placement) return 'placement known after the first run';
  const onWasm = placement.filter((p) => p.ep !== 'webgpu');
  const text = `webgpu: ${placement.length - onWasm.length} of ${placement.length} nodes on the GPU`;
  return onWasm.length ? `${text}; on wasm: ${onWasm.map((p) => (p.node ? `${p.op} '${p.node}'` : p.op)).join(', ')}` : text;
}

// twinrt-browser*: the wasm provider in a page. twinrt-webgpu*: the WebGPU provider alone (so a
// missing adapter fails instead of running everything on wasm); nodes without a GPU kernel
// still run on wasm, in `mode`, and the description lists them.
async function startBrowser(options, mode, { webgpu = false } = {}) {
  const version = checkBuilt();
  const threads = options.threads >= 0 ? options.threads : 1;
  const providers = webgpu ? { executionProviders: ['webgpu'] } : {};
  return browser.start({ threads }, {
    libDir: PACKAGE_DIR,
    moduleFile: 'lib/browser.js',
    webgpu,
    configure: (o) => { window.engineApi.env.wasm.numThreads = o.threads; },
    sessionOptions: ortSessionOptions(options, { mode, intraOpNumThreads: threads, ...providers }),
    describe: (info, placement) => {
      const where = `in Chromium ${info.browser}${info.crossOriginIsolated ? '' : ' (not cross-origin isolated)'}`;
      if (!webgpu) return `twinrt-web ${version} WASM ${where}, mode ${mode}, ${threadText(threads)}`;
      return `twinrt-web ${version} WebGPU ${where}, adapter: ${browser.adapterName(info.adapter)}, ` +
        `fallback on wasm in mode ${mode} with ${threadText(threads)}; ${placementText(placement)}`;
    },
  });
}

module.exports = { startNode, startBrowser };

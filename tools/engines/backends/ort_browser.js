// "ort-browser" and "ort-browser-webgpu" (alias "ort-webgpu"): onnxruntime-web in headless
// Chromium, with its WebAssembly backend or its WebGPU execution provider (on Chromium's
// software adapter when there is no GPU).
'use strict';
const path = require('path');
const { TOOLS_DIR, packageVersion, requirePackage } = require('../errors');
const browser = require('../browser/backend');
const { ortSessionOptions } = require('../ort_api');

function start(options, { webgpu }) {
  requirePackage('onnxruntime-web');
  const version = packageVersion('onnxruntime-web');
  const threads = options.threads >= 0 ? options.threads : 1;
  const sessionOptions = ortSessionOptions(options, { executionProviders: [webgpu ? 'webgpu' : 'wasm'] });
  const optimization = `graph optimization ${sessionOptions.graphOptimizationLevel}`;
  return browser.start({ threads }, {
    libDir: path.join(TOOLS_DIR, 'node_modules', 'onnxruntime-web', 'dist'),
    moduleFile: webgpu ? 'ort.webgpu.min.mjs' : 'ort.wasm.min.mjs',
    webgpu,
    configure: (o) => {
      window.engineApi.env.wasm.wasmPaths = '/lib/';
      window.engineApi.env.wasm.numThreads = o.threads;
    },
    sessionOptions,
    describe: (info) => {
      const where = `in Chromium ${info.browser}${info.crossOriginIsolated ? '' : ' (not cross-origin isolated)'}`;
      const threadText = threads > 0 ? `${threads} thread${threads > 1 ? 's' : ''}` : 'default threads';
      if (!webgpu) return `onnxruntime-web ${version} WASM (SIMD) ${where}, ${optimization}, ${threadText}`;
      return `onnxruntime-web ${version} WebGPU ${where}, ${optimization}, adapter: ${browser.adapterName(info.adapter)}`;
    },
  });
}

module.exports = { start };

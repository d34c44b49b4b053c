// "ort-web": onnxruntime-web's WebAssembly backend, run under Node.js (the same .wasm
// a browser runs, without the browser).
'use strict';
const { requirePackage, packageVersion } = require('../errors');
const { ortSessionOptions, openSession } = require('../ort_api');

async function start(options) {
  const ort = requirePackage('onnxruntime-web');
  // More than one thread uses worker_threads with a SharedArrayBuffer (works in Node 20);
  // 0 lets onnxruntime-web choose.
  const threads = options.threads >= 0 ? options.threads : 1;
  ort.env.wasm.numThreads = threads;
  const sessionOptions = ortSessionOptions(options, { executionProviders: ['wasm'] });
  const threadText = threads > 0 ? `${threads} thread${threads > 1 ? 's' : ''}` : 'default threads';
  return {
    description: `onnxruntime-web ${packageVersion('onnxruntime-web')} WASM (SIMD) under Node.js ` +
      `${process.versions.node}, graph optimization ${sessionOptions.graphOptimizationLevel}, ${threadText}`,
    load: (modelPath) => openSession(ort, modelPath, sessionOptions),
    async close() {},
  };
}

module.exports = { start };

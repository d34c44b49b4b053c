// A Model (see runner.js) over any module with the onnxruntime-web API shape
// (InferenceSession.create, Tensor), run in this Node.js process: onnxruntime-node,
// onnxruntime-web, or twinrt's own WebAssembly package.
'use strict';
const { asModelError } = require('./errors');

// Session options from the runner options shared by every ONNX Runtime flavour.
function ortSessionOptions(options, extra = {}) {
  const o = { graphOptimizationLevel: options.graph_optimization || 'all', ...extra };
  const dims = options.dim_overrides || {};
  if (Object.keys(dims).length) o.freeDimensionOverrides = dims;
  return o;
}

async function openSession(api, modelPath, sessionOptions) {
  let session;
  try {
    session = await api.InferenceSession.create(modelPath, sessionOptions);
  } catch (e) {
    throw asModelError(e);
  }
  const toFeeds = (feeds) =>
    Object.fromEntries(Object.entries(feeds).map(([name, t]) => [name, new api.Tensor(t.type, t.data, t.dims)]));
  return {
    inputNames: session.inputNames,
    outputNames: session.outputNames,
    runtime: session.runtime,  // twinrt-web only: the build that runs (variant, simd, threads)
    async run(feeds, outputNames) {
      const results = await session.run(toFeeds(feeds), outputNames);
      return Object.fromEntries(outputNames.map((n) => [n, { type: results[n].type, dims: results[n].dims, data: results[n].data }]));
    },
    async time(feeds, runs) {
      const tensors = toFeeds(feeds);
      const ms = [];
      for (let i = 0; i < runs; i++) {
        const start = performance.now();
        await session.run(tensors);
        ms.push(performance.now() - start);
      }
      return ms;
    },
    async close() {
      if (session.release) await session.release();
    },
  };
}

module.exports = { ortSessionOptions, openSession };

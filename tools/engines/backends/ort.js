// "ort": ONNX Runtime native (npm onnxruntime-node and the libonnxruntime it bundles), CPU.
'use strict';
const { requirePackage, packageVersion } = require('../errors');
const { ortSessionOptions, openSession } = require('../ort_api');

async function start(options) {
  const ort = requirePackage('onnxruntime-node');
  const threads = options.threads > 0 ? options.threads : 0;  // 0: ONNX Runtime's default
  const sessionOptions = ortSessionOptions(options, { intraOpNumThreads: threads, interOpNumThreads: 1 });
  const threadText = threads > 0 ? `${threads} thread${threads > 1 ? 's' : ''}` : 'default threads';
  return {
    description: `onnxruntime-node ${packageVersion('onnxruntime-node')} native CPU, ` +
      `graph optimization ${sessionOptions.graphOptimizationLevel}, ${threadText}`,
    load: (modelPath) => openSession(ort, modelPath, sessionOptions),
    async close() {},
  };
}

module.exports = { start };

#!/usr/bin/env node
// Runs a model with ONNX Runtime (npm onnxruntime-node) and writes output_<i>.npy in
// graph-output order: the oracle for twinrt's real-model tests.
//   node tools/ort_run.js MODEL --input NAME=FILE.npy ... --out DIR [--opt all|basic|extended|disabled]
'use strict';
const fs = require('fs');
const path = require('path');
const { readNpy, writeNpy } = require('./npy');

async function main(argv) {
  const args = { inputs: {}, out: null, opt: 'all', model: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--input') {
      const [name, file] = argv[++i].split('=');
      args.inputs[name] = file;
    } else if (a === '--out') args.out = argv[++i];
    else if (a === '--opt') args.opt = argv[++i];
    else if (!args.model) args.model = a;
    else throw new Error(`unexpected argument ${a}`);
  }
  if (!args.model || !args.out) throw new Error('usage: ort_run.js MODEL --input NAME=FILE --out DIR');
  const ort = require('onnxruntime-node');
  const session = await ort.InferenceSession.create(args.model, { graphOptimizationLevel: args.opt, intraOpNumThreads: 1 });
  const feeds = {};
  for (const [name, file] of Object.entries(args.inputs)) {
    const t = readNpy(file);
    feeds[name] = new ort.Tensor(t.type, t.data, t.dims);
  }
  const results = await session.run(feeds);
  fs.mkdirSync(args.out, { recursive: true });
  session.outputNames.forEach((name, i) => {
    const t = results[name];
    writeNpy(path.join(args.out, `output_${i}.npy`), t.type, t.dims, t.data);
    delete results[name];  // written: let the collector take it before the next one
  });
}

main(process.argv.slice(2)).catch((e) => { console.error(`ort_run: ${e.message}`); process.exit(2); });

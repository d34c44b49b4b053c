#!/usr/bin/env node
// Session creation time and peak RSS of ONNX Runtime (npm onnxruntime-node) on one model:
// creates a session (1 intra-op thread), runs it once on constant inputs, and prints
// VmHWM of this process and of a bare Node process, next to what `twinrt bench MODEL`
// prints for twinrt (docs/performance.md, "Session creation and peak RSS").
//   node tools/ort_memory.js MODEL [--dim NAME=VALUE ...] [--runs N]
'use strict';
const fs = require('fs');

const vmHwmKiB = () => Number(/VmHWM:\s*(\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]);

async function main(argv) {
  const args = { model: null, dims: {}, runs: 1 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--dim') {
      const [name, value] = argv[++i].split('=');
      args.dims[name] = Number(value);
    } else if (argv[i] === '--runs') args.runs = Number(argv[++i]);
    else if (!args.model) args.model = argv[i];
    else throw new Error(`unexpected argument ${argv[i]}`);
  }
  if (!args.model) throw new Error('usage: ort_memory.js MODEL [--dim NAME=VALUE ...] [--runs N]');
  const bareKiB = vmHwmKiB();
  const ort = require('onnxruntime-node');
  const afterRequireKiB = vmHwmKiB();
  const start = process.hrtime.bigint();
  const session = await ort.InferenceSession.create(args.model, { intraOpNumThreads: 1 });
  const createMs = Number(process.hrtime.bigint() - start) / 1e6;
  const feeds = {};
  for (const meta of session.inputMetadata) {
    const dims = meta.shape.map((d) => (typeof d === 'number' && d >= 0 ? d : args.dims[d]));
    if (dims.some((d) => d === undefined || Number.isNaN(d)))
      throw new Error(`input '${meta.name}' has dims ${JSON.stringify(meta.shape)}: give --dim NAME=VALUE`);
    const n = dims.reduce((a, b) => a * b, 1);
    const type = meta.type;
    let data;
    if (type === 'int64') data = new BigInt64Array(n).fill(1n);
    else if (type === 'int32') data = new Int32Array(n).fill(1);
    else if (type === 'float32') data = new Float32Array(n).fill(0.5);
    else throw new Error(`input '${meta.name}' has type ${type}, not handled here`);
    feeds[meta.name] = new ort.Tensor(type, data, dims);
  }
  for (let i = 0; i < args.runs; ++i) await session.run(feeds);
  const peakKiB = vmHwmKiB();
  const mib = (k) => (k / 1024).toFixed(1);
  console.log(`session creation: ${createMs.toFixed(1)} ms`);
  console.log(`peak RSS: ${mib(peakKiB)} MiB (Node before loading onnxruntime-node: ${mib(bareKiB)} MiB, ` +
              `after: ${mib(afterRequireKiB)} MiB; minus bare Node: ${mib(peakKiB - bareKiB)} MiB)`);
}

main(process.argv.slice(2)).catch((e) => { console.error(`ort_memory: ${e.message}`); process.exit(2); });

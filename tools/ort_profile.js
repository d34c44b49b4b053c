#!/usr/bin/env node
// Per-node kernel times of ONNX Runtime (npm onnxruntime-node) on random inputs, for a
// layer-by-layer comparison with `twinrt bench MODEL --profile --json`
// (tools/compare_node_times.py). Prints JSON: {"runs", "nodes": [{"name", "op", "ms_per_run",
// "input_shapes"}]}, the nodes in the order they ran.
//   node tools/ort_profile.js MODEL --shape 1,3,224,224 [--shape ...] [--int64] [--runs N] [--threads N]
// One --shape per model input, in input order; --int64 fills them with token ids instead of floats.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');

function parse(argv) {
  const args = { model: null, shapes: [], runs: 20, threads: 1, int64: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--shape') args.shapes.push(argv[++i].split(',').map(Number));
    else if (a === '--runs') args.runs = Number(argv[++i]);
    else if (a === '--threads') args.threads = Number(argv[++i]);
    else if (a === '--int64') args.int64 = true;
    else if (!args.model) args.model = a;
    else throw new Error(`unexpected argument ${a}`);
  }
  if (!args.model) throw new Error('usage: ort_profile.js MODEL --shape D,D,... [--int64] [--runs N] [--threads N]');
  if (!(args.runs >= 1) || !(args.threads >= 1)) throw new Error('--runs and --threads must be >= 1');
  return args;
}

function randomTensor(ort, dims, int64) {
  const n = dims.reduce((a, b) => a * b, 1);
  if (int64) return new ort.Tensor('int64', BigInt64Array.from({ length: n }, () => BigInt(Math.floor(Math.random() * 1000))), dims);
  return new ort.Tensor('float32', Float32Array.from({ length: n }, () => Math.random()), dims);
}

async function main(argv) {
  const args = parse(argv);
  const ort = require('onnxruntime-node');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ort-profile-'));
  const session = await ort.InferenceSession.create(args.model, {
    intraOpNumThreads: args.threads, interOpNumThreads: 1, enableProfiling: true,
    profileFilePrefix: path.join(dir, 'profile'),
  });
  if (args.shapes.length !== session.inputNames.length)
    throw new Error(`the model has ${session.inputNames.length} inputs; give one --shape per input`);
  const feeds = Object.fromEntries(session.inputNames.map((name, i) => [name, randomTensor(ort, args.shapes[i], args.int64)]));
  await session.run(feeds);  // warm-up, left out below
  for (let i = 0; i < args.runs; ++i) await session.run(feeds);
  if (session.endProfiling) await session.endProfiling();
  await session.release();
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.json'));
  const events = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  fs.rmSync(dir, { recursive: true, force: true });
  const kernels = events.filter((e) => e.cat === 'Node' && e.name.endsWith('_kernel_time'));
  const perRun = kernels.length / (args.runs + 1);
  const nodes = new Map();
  kernels.slice(perRun).forEach((e) => {  // without the warm-up run
    const name = e.name.slice(0, -'_kernel_time'.length);
    const node = nodes.get(name) || { name, op: e.args.op_name, ms_per_run: 0,
      input_shapes: (e.args.input_type_shape || []).map((s) => Object.values(s)[0]) };
    node.ms_per_run += e.dur / 1000 / args.runs;
    nodes.set(name, node);
  });
  process.stdout.write(JSON.stringify({ runs: args.runs, nodes: [...nodes.values()] }) + '\n');
}

main(process.argv.slice(2)).catch((e) => {
  process.stderr.write(`ort_profile: ${e.message}\n`);
  process.exit(2);
});

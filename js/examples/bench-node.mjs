#!/usr/bin/env node
// Times twinrt-web under Node on one model: session creation (with the module's first load),
// the first run and the median of warm runs, on seeded uniform float inputs.
//   node js/examples/bench-node.mjs MODEL [--runs N] [--mode default|reference] [--threads N] [--dim NAME=V]...
//        [--simd false] [--wasm-paths DIR]
import fs from 'node:fs';
import { InferenceSession, Tensor, env } from '../lib/node.js';

const args = process.argv.slice(2);
const opt = { runs: 10, mode: 'default', threads: 1, dims: {} };
let model = null;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--runs') opt.runs = Number(args[++i]);
  else if (a === '--mode') opt.mode = args[++i];
  else if (a === '--threads') opt.threads = Number(args[++i]);
  else if (a === '--dim') { const [k, v] = args[++i].split('='); opt.dims[k] = Number(v); }
  else if (a === '--simd') env.wasm.simd = args[++i] !== 'false';
  else if (a === '--wasm-paths') env.wasm.wasmPaths = args[++i];
  else model = a;
}
if (!model) { console.error('usage: bench-node.mjs MODEL [--runs N] [--mode M] [--threads N] [--dim NAME=V]...'); process.exit(2); }
env.wasm.numThreads = opt.threads;

let seed = 1;
const uniform = () => { seed = (seed * 1103515245 + 12345) >>> 0; return seed / 2 ** 32 * 2 - 1; };

let t0 = performance.now();
const session = await InferenceSession.create(fs.readFileSync(model), { mode: opt.mode, freeDimensionOverrides: opt.dims });
const createMs = performance.now() - t0;
const feeds = {};
for (const m of session.inputMetadata) {
  if (m.type !== 'float32') throw new Error(`input '${m.name}' is ${m.type}: only float32 inputs are generated`);
  const dims = m.shape.map((d) => (typeof d === 'number' ? d : opt.dims[d] ?? 1));
  feeds[m.name] = new Tensor('float32', Float32Array.from({ length: dims.reduce((a, b) => a * b, 1) }, uniform), dims);
}
t0 = performance.now();
await session.run(feeds);
const firstMs = performance.now() - t0;
const times = [];
for (let i = 0; i < opt.runs; i++) {
  t0 = performance.now();
  await session.run(feeds);
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
console.log(JSON.stringify({ model, mode: opt.mode, variant: session.runtime.variant, threads: session.runtime.threads,
  session_create_ms: +createMs.toFixed(2), first_run_ms: +firstMs.toFixed(2), p50_ms: +times[Math.floor((times.length - 1) / 2)].toFixed(2), runs: opt.runs }));
await session.release();

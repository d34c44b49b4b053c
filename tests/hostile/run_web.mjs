// Runs the hostile-input corpus (make_corpus.py) through twinrt-web in Node: every case with
// a "web" entry is loaded from its bytes and, when the session is created, run on zeros of
// the declared shapes (symbolic and unknown dims 1). A case passes when the Promise resolves
// or rejects with a TwinrtError, and the same instance still computes a known model's answer
// afterwards. A crash or abort of the instance, an error that is not a TwinrtError, or no
// answer in 60 s fails it.
//   node tests/hostile/run_web.mjs CORPUS_DIR [SUMMARY.md]
import fs from 'fs';
import path from 'path';
import { InferenceSession, Tensor, env } from '../../js/lib/node.js';
import { TwinrtError } from '../../js/lib/errors.js';
import { TYPED_ARRAYS } from '../../js/lib/tensor.js';
import { makeModel } from '../js/make-model.js';

env.wasm.numThreads = 1;
const [corpus, summaryPath] = process.argv.slice(2);
const { cases } = JSON.parse(fs.readFileSync(path.join(corpus, 'manifest.json'), 'utf8'));
const TIMEOUT_MS = 60000;

// y = x + 1: the check that the instance still works after each case.
const plusOne = makeModel({
  inputs: [{ name: 'x', type: 'float32', dims: [3] }],
  outputs: [{ name: 'y', type: 'float32', dims: [3] }],
  initializers: [{ name: 'one', type: 'float32', dims: [], values: [1] }],
  nodes: [{ op: 'Add', inputs: ['x', 'one'], outputs: ['y'] }],
});

function zeros(meta) {
  const dims = meta.shape.map((d) => (typeof d === 'number' && d >= 0 ? d : 1));
  const n = dims.reduce((a, b) => a * b, 1);
  const Array_ = TYPED_ARRAYS[meta.type];
  if (!Array_ || n > 1 << 24) return null;  // the session refuses such inputs itself
  return new Tensor(meta.type, meta.type === 'string' ? new Array(n).fill('') : new Array_(n), dims);
}

async function runCase(bytes) {
  const s = await InferenceSession.create(bytes);
  const feeds = {};
  for (const meta of s.inputMetadata) {
    if (!meta.isTensor) return 'created';
    const t = zeros(meta);
    if (!t) return 'created';
    feeds[meta.name] = t;
  }
  await s.run(feeds);
  await s.release();
  return 'ran';
}

const withTimeout = (p) => Promise.race([p, new Promise((_, reject) =>
  setTimeout(() => reject(new Error(`no answer after ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS).unref())]);

const columns = ['tried', 'ok', 'clean error', 'crash', 'hang', 'OOM'];
const rows = new Map();
let failed = 0;
for (const c of cases.filter((c) => c.web)) {
  const row = rows.get(c.kind) || Object.fromEntries(columns.map((k) => [k, 0]));
  rows.set(c.kind, row);
  row.tried++;
  let outcome;
  try {
    await withTimeout(runCase(fs.readFileSync(path.join(corpus, c.web.model))));
    outcome = 'ok';
  } catch (e) {
    if (e instanceof TwinrtError) outcome = e.code === 'OUT_OF_MEMORY' ? 'OOM' : 'clean error';
    else outcome = /no answer/.test(e.message) ? 'hang' : 'crash';
    if (c.expect === 'error' && c.match && outcome === 'clean error' && !new RegExp(c.match).test(e.message))
      console.log(`note ${c.name}: ${e.message}`);
    if (outcome !== 'clean error') console.log(`FAIL ${c.name} (${outcome}): ${e.message}`);
  }
  try {
    const s = await InferenceSession.create(plusOne);
    const y = (await s.run({ x: new Tensor('float32', Float32Array.from([1, 2, 3]), [3]) })).y;
    if (y.data.join() !== '2,3,4') throw new Error(`plus-one gave ${y.data.join()}`);
    await s.release();
  } catch (e) {
    console.log(`FAIL ${c.name}: the instance no longer works: ${e.message}`);
    outcome = 'crash';
  }
  if (!['ok', 'clean error'].includes(outcome)) failed++;
  row[outcome]++;
}
const lines = [`| kind | ${columns.join(' | ')} |`, `|---|${'---:|'.repeat(columns.length)}`];
const total = Object.fromEntries(columns.map((k) => [k, 0]));
for (const [kind, row] of rows) {
  lines.push(`| ${kind} | ${columns.map((k) => row[k]).join(' | ')} |`);
  for (const k of columns) total[k] += row[k];
}
lines.push(`| **all** | ${columns.map((k) => `**${total[k]}**`).join(' | ')} |`);
console.log(lines.join('\n'));
if (summaryPath) fs.writeFileSync(summaryPath, lines.join('\n') + '\n');
console.log(`hostile corpus (twinrt-web): ${total.tried} cases, ${failed} failed`);
process.exit(failed ? 1 : 0);

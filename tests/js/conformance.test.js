// The ONNX backend test data (Debian libonnx-testdata) through the WebAssembly build, in
// every mode, against the native runner's expectation list (tests/conformance/
// expected_failures.txt): the same data sets must pass. In exact and reference mode every
// output must also equal the native CLI's bit for bit.
import test from 'node:test';
import assert from 'node:assert';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InferenceSession, env } from '../../js/lib/node.js';
import { parseValue, asDeclared, compareValues, isRandomTest, checkRandomOutputs } from './onnx-testdata.js';
import { ROOT, nativeAvailable, runNative, nativeOutput, sameBits } from './native.js';

const DATA = process.env.TWINRT_TESTDATA || '/usr/share/libonnx-testdata/data';
const SUITES = ['node', 'pytorch-converted', 'pytorch-operator', 'simple'];
const FILTER = process.env.TWINRT_CONFORMANCE_FILTER || '';
// Which variant runs the suite: TWINRT_WASM_THREADS=4 picks a threaded build, TWINRT_WASM_SIMD=0 one
// without SIMD128 (ctest runs the default: SIMD, one thread).
env.wasm.numThreads = Number(process.env.TWINRT_WASM_THREADS || 1);
env.wasm.simd = process.env.TWINRT_WASM_SIMD !== '0';

function expectations(mode) {
  const listed = new Set();
  const text = fs.readFileSync(path.join(ROOT, 'tests/conformance/expected_failures.txt'), 'utf8');
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const [id, modes] = line.split(/\s+/);
    if (modes === 'all' || modes === mode) listed.add(id);
  }
  return listed;
}

function testIds() {
  const ids = [];
  for (const suite of SUITES) {
    const dir = path.join(DATA, suite);
    if (!fs.existsSync(dir)) continue;
    for (const name of fs.readdirSync(dir))
      if (fs.existsSync(path.join(dir, name, 'model.onnx'))) ids.push(`${suite}/${name}`);
  }
  return ids.sort().filter((id) => id.includes(FILTER));
}

function readValues(dir, prefix, metadata) {
  const values = [];
  for (let i = 0; fs.existsSync(path.join(dir, `${prefix}_${i}.pb`)); i++) {
    if (i >= metadata.length) throw new Error(`${prefix}_${i}.pb: the model has only ${metadata.length} ${prefix}s`);
    const m = metadata[i];
    const v = parseValue(fs.readFileSync(path.join(dir, `${prefix}_${i}.pb`)), m.isTensor ? 'tensor' : m.kind);
    values.push(asDeclared(v, m.type));
  }
  return values;
}

// Runs one test case; returns { passed, message, bitsChecked, bitsDiffer }.
async function runCase(id, mode, compareNative, work) {
  const dir = path.join(DATA, id);
  const name = path.basename(id);
  const result = { passed: false, message: '', bitsChecked: 0, bitsDiffer: [] };
  let session;
  try {
    session = await InferenceSession.create(fs.readFileSync(path.join(dir, 'model.onnx')), { mode });
  } catch (e) {
    result.message = e.message;
    return result;
  }
  try {
    const sets = fs.readdirSync(dir).filter((d) => d.startsWith('test_data_set_')).sort();
    if (!sets.length) { result.message = 'no test_data_set_* folder'; return result; }
    for (const set of sets) {
      const setDir = path.join(dir, set);
      let inputs, expected;
      try {
        inputs = readValues(setDir, 'input', session.inputMetadata);
        expected = readValues(setDir, 'output', session.outputMetadata);
      } catch (e) {
        result.message = `${set}: ${e.message}`;
        return result;
      }
      const feeds = {};
      inputs.forEach((v, i) => { feeds[session.inputNames[i]] = v; });
      let out;
      try {
        out = await session.run(feeds);
      } catch (e) {
        result.message = `${set}: ${e.message}`;
        return result;
      }
      const actual = session.outputNames.map((n) => (n in out ? out[n] : null)).slice(0, expected.length);
      const m = isRandomTest(name)
        ? checkRandomOutputs(name, inputs, actual, expected)
        : expected.map((e, i) => {
          const d = compareValues(actual[i], e);
          return d && `output '${session.outputNames[i]}': ${d}`;
        }).find((d) => d) || '';
      if (m) { result.message = `${set}: ${m}`; return result; }
      if (compareNative) {
        const outDir = path.join(work, 'native');
        const r = runNative(path.join(dir, 'model.onnx'), ['--test-data', setDir, '--mode', mode], outDir);
        if (!r.ok && !session.outputMetadata.some((o) => o.type === 'string')) {
          result.bitsDiffer.push(`${id}/${set}: native run failed: ${r.error}`);
        } else {
          session.outputNames.forEach((n, i) => {
            if (session.outputMetadata[i].type === 'string') return;  // the CLI cannot write strings
            result.bitsChecked++;
            const d = sameBits(out[n], nativeOutput(outDir, i));
            if (d) result.bitsDiffer.push(`${id}/${set} output '${n}': ${d}`);
          });
        }
      }
    }
    result.passed = true;
    return result;
  } finally {
    await session.release();
  }
}

const BIT_IDENTICAL_MODES = ['exact', 'reference'];

for (const mode of ['default', 'exact', 'reference']) {
  test(`ONNX conformance through WebAssembly (${mode})`, async (t) => {
    const listed = expectations(mode);
    const ids = testIds();
    assert.ok(ids.length > 0, `no ONNX test data under ${DATA} (install libonnx-testdata)`);
    const bitIdentical = BIT_IDENTICAL_MODES.includes(mode);
    const compareNative = bitIdentical && nativeAvailable();
    if (bitIdentical && !compareNative) t.diagnostic('native CLI not built: bit-identity not checked');
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'twinrt-js-conformance-'));
    let passed = 0, failed = 0, bits = 0;
    const regressions = [], xpass = [], differ = [];
    for (const id of ids) {
      const r = await runCase(id, mode, compareNative, work);
      bits += r.bitsChecked;
      differ.push(...r.bitsDiffer);
      if (r.passed) {
        passed++;
        if (listed.has(id)) xpass.push(id);
      } else {
        failed++;
        if (!listed.has(id)) regressions.push(`${id}: ${r.message.split('\n')[0]}`);
      }
    }
    fs.rmSync(work, { recursive: true, force: true });
    t.diagnostic(`${mode}: ${passed} passed, ${failed} failed (native: 1066 passed, 6 listed)`);
    if (compareNative) t.diagnostic(`${mode}: ${bits - differ.length} of ${bits} outputs bit-identical to the native CLI`);
    assert.deepStrictEqual(regressions, [], 'data sets that fail and are not in expected_failures.txt');
    if (!FILTER) assert.deepStrictEqual(xpass, [], 'listed failures that now pass');
    assert.deepStrictEqual(differ, [], `${mode} outputs that differ from the native CLI`);
  });
}

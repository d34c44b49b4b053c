// The ONNX backend test data (Debian libonnx-testdata, node suite) of the ops that have a
// WGSL kernel, for webgpu.test.js: read here, run in the page, compared here with the
// conformance runner's rule (tests/js/onnx-testdata.js). Int and other non-float32 data
// sets run too: their nodes fall back to wasm.
import fs from 'node:fs';
import path from 'node:path';
import { Tensor } from '../../js/lib/node.js';
import { TYPED_ARRAYS } from '../../js/lib/tensor.js';
import { parseValue, compareValues } from '../js/onnx-testdata.js';
import { ROOT } from '../js/native.js';

const DATA = process.env.TWINRT_TESTDATA || '/usr/share/libonnx-testdata/data';
// gather covers gather_elements; identity_opt and identity_sequence hold no tensors; the
// string casts have no typed array here, and bfloat16 inputs come back from the parser as uint16.
const OPS = /^test_(add|sub|mul|div|pow|relu|sigmoid|tanh|exp|sqrt|erf|clip|hardsigmoid|hardswish|leakyrelu|matmul|gemm|conv|maxpool|averagepool|globalaveragepool|softmax|reshape|flatten|transpose|concat|layer_normalization|batchnorm|reduce_(?:sum|mean|prod|max|min|l1|l2|log_sum)|squeeze|unsqueeze|identity(?!_)|slice|gather|gathernd|where|cast(?!_FLOAT_to_STRING|_STRING_to|_BFLOAT16_to)|split|resize|convtranspose)(_|$)/;

// Data sets the native runner lists as failing in default mode.
function listedFailures() {
  const text = fs.readFileSync(path.join(ROOT, 'tests/conformance/expected_failures.txt'), 'utf8');
  return new Set(text.split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split(/\s+/))
    .filter(([, modes]) => modes === 'all' || modes === 'default').map(([id]) => id));
}

const toWire = (t) => ({ type: t.type, dims: [...t.dims], base64: Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength).toString('base64') });
function fromWire(w) {
  if (!w) return null;
  const bytes = Buffer.from(w.base64, 'base64');
  const copy = new Uint8Array(bytes);  // aligned for the typed array
  return new Tensor(w.type, new TYPED_ARRAYS[w.type](copy.buffer), w.dims);
}

const read = (dir, prefix) => {
  const out = [];
  for (let i = 0; fs.existsSync(path.join(dir, `${prefix}_${i}.pb`)); i++) out.push(parseValue(fs.readFileSync(path.join(dir, `${prefix}_${i}.pb`)), 'tensor'));
  return out;
};

export const testDataAvailable = () => fs.existsSync(path.join(DATA, 'node'));

// Runs every matching data set through run(spec) (the page); returns { passed, failed:
// ['id: message'], onGpu, wasmOnly } where onGpu counts data sets with at least one node on
// the GPU and wasmOnly names the others. `only` narrows the data sets (a RegExp on the id).
export async function runConformance(run, only = /./) {
  const listed = listedFailures();
  const ids = fs.readdirSync(path.join(DATA, 'node')).filter((n) => OPS.test(n) && only.test(n)).sort().map((n) => `node/${n}`);
  const result = { passed: 0, failed: [], onGpu: 0, wasmOnly: [], skipped: 0 };
  for (const id of ids) {
    if (listed.has(id)) { result.skipped++; continue; }
    const dir = path.join(DATA, id);
    const model = fs.readFileSync(path.join(dir, 'model.onnx')).toString('base64');
    let gpuUsed = false, message = '';
    for (const set of fs.readdirSync(dir).filter((d) => d.startsWith('test_data_set_')).sort()) {
      const inputs = read(path.join(dir, set), 'input'), expected = read(path.join(dir, set), 'output');
      let r;
      try {
        r = await run({ model, inputs: inputs.map(toWire) });
      } catch (e) {
        message = `${set}: ${e.message.split('\n')[0]}`;
        break;
      }
      gpuUsed ||= r.placement.some((p) => p.ep === 'webgpu');
      message = expected.map((e, k) => compareValues(fromWire(r.outputs[k]), e)).map((d, k) => d && `${set} output ${k}: ${d}`).find(Boolean) || '';
      if (message) break;
    }
    if (message) result.failed.push(`${id}: ${message}`);
    else result.passed++;
    if (gpuUsed) result.onGpu++;
    else result.wasmOnly.push(id.replace('node/', ''));
  }
  return result;
}

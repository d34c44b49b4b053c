// Reads ONNX backend test data (input_<i>.pb / output_<i>.pb: TensorProto, SequenceProto or
// OptionalProto) into twinrt-web values, and compares outputs with the rules of the native
// conformance runner (docs/conformance.md): floats within 1e-7 + 1e-3*|expected| (NaN equals
// NaN, infinities exact), everything else exact; Bernoulli and training Dropout by their
// value set and rate.
import { Tensor } from '../../js/lib/node.js';

// --- protobuf wire format --------------------------------------------------------------
function* fields(buf) {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let pos = 0;
  const varint = () => {
    let v = 0n, shift = 0n;
    for (;;) {
      const b = buf[pos++];
      v |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
      shift += 7n;
    }
  };
  while (pos < buf.length) {
    const key = Number(varint());
    const number = key >>> 3, type = key & 7;
    if (type === 0) yield { number, type, value: varint() };
    else if (type === 1) { yield { number, type, bytes: buf.subarray(pos, pos + 8), view, at: pos }; pos += 8; }
    else if (type === 5) { yield { number, type, bytes: buf.subarray(pos, pos + 4), view, at: pos }; pos += 4; }
    else if (type === 2) { const n = Number(varint()); yield { number, type, bytes: buf.subarray(pos, pos + n) }; pos += n; }
    else throw new Error(`unsupported wire type ${type}`);
  }
}

// Repeated scalar field, packed or not: each as BigInt (varints) or bytes (fixed).
function varints(f) {
  if (f.type === 0) return [f.value];
  const out = [];
  for (const g of fields(prefixVarints(f.bytes))) out.push(g.value);
  return out;
}
// Packed varints carry no keys: give each one the key of field 1, varint type.
function prefixVarints(bytes) {
  const out = [];
  let i = 0;
  while (i < bytes.length) {
    out.push(8);
    do out.push(bytes[i]); while (bytes[i++] & 0x80);
  }
  return Uint8Array.from(out);
}
function fixed(f, size) {
  const b = f.bytes;
  const out = [];
  for (let i = 0; i < b.length; i += size) out.push(b.subarray(i, i + size));
  return out;
}

const TYPE_NAMES = { 1: 'float32', 2: 'uint8', 3: 'int8', 4: 'uint16', 5: 'int16', 6: 'int32', 7: 'int64',
  8: 'string', 9: 'bool', 10: 'float16', 11: 'float64', 12: 'uint32', 13: 'uint64', 16: 'bfloat16' };
const CTORS = { float32: Float32Array, uint8: Uint8Array, int8: Int8Array, uint16: Uint16Array, int16: Int16Array,
  int32: Int32Array, int64: BigInt64Array, bool: Uint8Array, float16: Uint16Array, float64: Float64Array,
  uint32: Uint32Array, uint64: BigUint64Array, bfloat16: Uint16Array };

export function parseTensor(buf) {
  const dims = [];
  let code = 0, raw = null;
  const floats = [], int32s = [], int64s = [], doubles = [], uint64s = [], strings = [];
  for (const f of fields(buf)) {
    if (f.number === 1) for (const v of varints(f)) dims.push(Number(BigInt.asIntN(64, v)));
    else if (f.number === 2) code = Number(f.value);
    else if (f.number === 4) for (const b of fixed(f, 4)) floats.push(new DataView(b.buffer, b.byteOffset).getFloat32(0, true));
    else if (f.number === 5) for (const v of varints(f)) int32s.push(Number(BigInt.asIntN(32, v)));
    else if (f.number === 6) strings.push(new TextDecoder().decode(f.bytes));
    else if (f.number === 7) for (const v of varints(f)) int64s.push(BigInt.asIntN(64, v));
    else if (f.number === 9) raw = f.bytes;
    else if (f.number === 10) for (const b of fixed(f, 8)) doubles.push(new DataView(b.buffer, b.byteOffset).getFloat64(0, true));
    else if (f.number === 11) for (const v of varints(f)) uint64s.push(BigInt.asUintN(64, v));
    else if (f.number === 14 && Number(f.value) === 1) throw new Error('external test data is not supported');
  }
  const type = TYPE_NAMES[code];
  if (!type) throw new Error(`unsupported tensor data type ${code}`);
  if (type === 'string') return new Tensor('string', strings, dims);
  const Ctor = CTORS[type];
  let data;
  if (raw) data = new Ctor(new Uint8Array(raw).buffer);  // a copy: raw may be an unaligned Buffer view
  else if (type === 'float32') data = Float32Array.from(floats);
  else if (type === 'float64') data = Float64Array.from(doubles);
  else if (type === 'int64') data = BigInt64Array.from(int64s);
  else if (type === 'uint64') data = BigUint64Array.from(uint64s);
  else if (type === 'uint32') data = Uint32Array.from(uint64s.map(Number));
  else data = Ctor.from(int32s);
  return new Tensor(type, data, dims);
}

// kind: 'tensor' | 'sequence' | 'optional' (from the model's input/output metadata).
export function parseValue(buf, kind) {
  if (kind === 'tensor') return parseTensor(buf);
  if (kind === 'sequence') {
    const items = [];
    for (const f of fields(buf)) if (f.number === 3) items.push(parseTensor(f.bytes));
    return items;
  }
  let value = null;
  for (const f of fields(buf)) {
    if (f.number === 3) value = parseTensor(f.bytes);
    else if (f.number === 5) value = parseValue(f.bytes, 'sequence');
  }
  return value;
}

// ONNX 1.12 stores bfloat16 data as uint16 tensors of the bit patterns.
export function asDeclared(v, type) {
  if (type !== 'bfloat16') return v;
  if (Array.isArray(v)) return v.map((t) => asDeclared(t, type));
  if (v && v.type === 'uint16') return new Tensor('bfloat16', v.data, v.dims);
  return v;
}

// --- comparison ------------------------------------------------------------------------
function halfToFloat(h) {
  const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}
function bf16ToFloat(b) { return new Float32Array(new Uint32Array([b << 16]).buffer)[0]; }

function element(t, i) {
  if (t.type === 'float16') return halfToFloat(t.data[i]);
  if (t.type === 'bfloat16') return bf16ToFloat(t.data[i]);
  return Number(t.data[i]);
}
const FLOAT_TYPES = ['float16', 'bfloat16', 'float32', 'float64'];

function compareTensors(a, e) {
  if (a.type !== e.type) return `dtype ${a.type}, expected ${e.type}`;
  if (a.dims.join() !== e.dims.join()) return `shape [${a.dims}], expected [${e.dims}]`;
  const isFloat = FLOAT_TYPES.includes(e.type);
  for (let i = 0; i < e.size; i++) {
    if (e.type === 'string' || e.type === 'int64' || e.type === 'uint64') {
      if (a.data[i] !== e.data[i]) return `${a.data[i]}, expected ${e.data[i]} at flat index ${i}`;
      continue;
    }
    const x = element(a, i), y = element(e, i);
    let ok;
    if (!isFloat) ok = x === y;
    else if (Number.isNaN(y)) ok = Number.isNaN(x);
    else if (!Number.isFinite(y)) ok = x === y;
    else ok = Math.abs(x - y) <= 1e-7 + 1e-3 * Math.abs(y);
    if (!ok) return `${x}, expected ${y} at flat index ${i}`;
  }
  return '';
}

const kindOf = (v) => (v === null ? 'nothing' : Array.isArray(v) ? 'sequence' : 'tensor');

// '' when equal; otherwise the first difference. Optionals are compared by their content.
export function compareValues(a, e) {
  if (kindOf(a) !== kindOf(e)) return `got ${kindOf(a)}, expected ${kindOf(e)}`;
  if (e === null) return '';
  if (Array.isArray(e)) {
    if (a.length !== e.length) return `sequence of ${a.length}, expected ${e.length}`;
    for (let i = 0; i < e.length; i++) {
      const m = compareTensors(a[i], e[i]);
      if (m) return `sequence element ${i}: ${m}`;
    }
    return '';
  }
  return compareTensors(a, e);
}

export function isRandomTest(name) {
  return name.startsWith('test_bernoulli') || (name.startsWith('test_training_dropout') && !name.includes('zero_ratio'));
}

const plausible = (observed, expected, variance) => Math.abs(observed - expected) <= 4 * Math.sqrt(variance) + 1;

export function checkRandomOutputs(name, inputs, actual, expected) {
  if (name.startsWith('test_bernoulli')) {
    const [p, a, e] = [inputs[0], actual[0], expected[0]];
    if (a.type !== e.type || a.dims.join() !== e.dims.join()) return 'dtype or shape differs';
    let ones = 0, mean = 0, variance = 0;
    for (let i = 0; i < a.size; i++) {
      const v = element(a, i), pi = element(p, i);
      if (v !== 0 && v !== 1) return `value ${v} is neither 0 nor 1 at flat index ${i}`;
      ones += v; mean += pi; variance += pi * (1 - pi);
    }
    return plausible(ones, mean, variance) ? '' : `${ones} ones, expected about ${mean}`;
  }
  const x = inputs[0], y = actual[0];
  const ratio = inputs.length > 1 && inputs[1] ? element(inputs[1], 0) : 0.5;
  if (y.type !== expected[0].type || y.dims.join() !== expected[0].dims.join()) return 'dtype or shape differs';
  const scale = 1 / (1 - ratio);
  let dropped = 0;
  for (let i = 0; i < y.size; i++) {
    const v = element(y, i), kept = element(x, i) * scale;
    const isDropped = v === 0 && kept !== 0;
    if (!isDropped && Math.abs(v - kept) > 1e-6 + 1e-5 * Math.abs(kept)) return `value ${v} is neither 0 nor x/(1-ratio) at flat index ${i}`;
    dropped += isDropped;
    if (actual.length > 1 && actual[1] && (actual[1].data[i] !== 0) === isDropped) return `mask disagrees with the output at flat index ${i}`;
  }
  const n = y.size;
  return plausible(dropped, n * ratio, n * ratio * (1 - ratio)) ? '' : `${dropped} dropped, expected about ${n * ratio}`;
}

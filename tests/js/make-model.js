// Writes small ONNX models for the API tests (protobuf wire format by hand: the tests need
// no Python and no onnx package).
const TYPES = { float32: 1, uint8: 2, int8: 3, int32: 6, int64: 7, string: 8, bool: 9, float64: 11 };

function varint(n) {
  let v = BigInt.asUintN(64, BigInt(n));
  const out = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return out;
}
const key = (number, type) => varint((number << 3) | type);
const bytesField = (number, bytes) => [...key(number, 2), ...varint(bytes.length), ...bytes];
const str = (number, s) => bytesField(number, [...new TextEncoder().encode(s)]);
const int = (number, n) => [...key(number, 0), ...varint(n)];

// { name, type, dims, sequence? }: a tensor, or with `sequence: true` a sequence of them.
// Without dims the shape is left out (not even the rank is declared).
function valueInfo(v) {
  const dims = (v.dims || []).map((d) => bytesField(1, typeof d === 'string' ? str(2, d) : int(1, d)));
  const shape = v.dims ? bytesField(2, dims.flat()) : [];
  const tensorType = bytesField(1, [...int(1, TYPES[v.type]), ...shape]);
  return [...str(1, v.name), ...bytesField(2, v.sequence ? bytesField(4, bytesField(1, tensorType)) : tensorType)];
}

function attribute([name, value]) {
  const a = str(1, name);
  if (Array.isArray(value)) return [...a, ...value.flatMap((x) => int(8, x)), ...int(20, 7)];
  if (typeof value === 'string') return [...a, ...str(4, value), ...int(20, 3)];
  if (Number.isInteger(value)) return [...a, ...int(3, value), ...int(20, 2)];
  const f = new Uint8Array(new Float32Array([value]).buffer);
  return [...a, ...key(2, 5), ...f, ...int(20, 1)];
}

function node(n) {
  return [...n.inputs.flatMap((x) => str(1, x)), ...n.outputs.flatMap((x) => str(2, x)),
    ...str(4, n.op), ...Object.entries(n.attrs || {}).flatMap((a) => bytesField(5, attribute(a)))];
}

// initializers: [{ name, type: 'float32' | 'int64', dims, values, external? }]; with
// `external: 'file.bin'` the values are left out of the model (see tensorBytes) and the
// initializer points at the whole file.
export function tensorBytes(t) {
  const data = t.type === 'int64' ? BigInt64Array.from(t.values, BigInt) : Float32Array.from(t.values);
  return new Uint8Array(data.buffer);
}
function initializer(t) {
  const head = [...t.dims.flatMap((d) => int(1, d)), ...int(2, TYPES[t.type]), ...str(8, t.name)];
  if (!t.external) return [...head, ...bytesField(9, [...tensorBytes(t)])];
  const entry = (k, v) => bytesField(13, [...str(1, k), ...str(2, v)]);
  return [...head, ...entry('location', t.external), ...entry('offset', '0'),
    ...entry('length', String(tensorBytes(t).length)), ...int(14, 1)];
}

// { inputs: [{name, type, dims}], outputs: [...], nodes: [{op, inputs, outputs, attrs}],
//   initializers?: [...], opset?: 17 } -> Uint8Array
export function makeModel(m) {
  const graph = [...m.nodes.flatMap((n) => bytesField(1, node(n))), ...str(2, 'g'),
    ...(m.initializers || []).flatMap((t) => bytesField(5, initializer(t))),
    ...m.inputs.flatMap((v) => bytesField(11, valueInfo(v))), ...m.outputs.flatMap((v) => bytesField(12, valueInfo(v)))];
  return Uint8Array.from([...int(1, 8), ...bytesField(8, [...str(1, ''), ...int(2, m.opset || 17)]), ...bytesField(7, graph)]);
}

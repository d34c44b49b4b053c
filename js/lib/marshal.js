// Copies values between JavaScript and the WebAssembly heap: checked feeds (js/lib/feeds.js)
// in, Tensors (arrays of them for sequences, null for an empty optional) out.
//
// Pointers from the module are unsigned (`>>> 0`): the heap may grow to 4 GiB and a wasm32
// address above 2 GiB arrives in JavaScript as a negative i32.
import { Tensor, TYPED_ARRAYS } from './tensor.js';
import { CODE_OF_TYPE, TYPE_OF_CODE } from './dtypes.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// Heap views are made afresh for every use: the memory may have grown since the last one.
// Threaded builds export the (shared) memory; the others refresh Module.HEAPU8 as it grows.
export function heap(M) { return M.wasmMemory ? M.wasmMemory.buffer : M.HEAPU8.buffer; }

// Heap blocks for one call, freed together. oomError(message) makes the error thrown when
// memory runs out; what (e.g. "input 'x'") names what the block is for.
export class HeapScope {
  constructor(M, oomError) {
    this.M = M;
    this.ptrs = [];
    this.oomError = oomError;
    this.heapMax = M._twinrt_heap_max();
  }
  // Checked before any size reaches the module, whose sizes are 32-bit: a larger one would
  // wrap around.
  checkFits(bytes, what) {
    if (bytes > this.heapMax)
      throw this.oomError(`${what} needs ${bytes} bytes, more than the WebAssembly heap's maximum of ${this.heapMax} bytes`);
  }
  alloc(bytes, what) {
    this.checkFits(bytes, what);
    const p = this.M._malloc(Math.max(bytes, 1)) >>> 0;
    if (!p) throw this.oomError(`could not allocate ${bytes} bytes of WebAssembly memory for ${what}`);
    this.ptrs.push(p);
    return p;
  }
  // Copies any typed array in. The size is checked before a byte view is made: a view of
  // 4 GiB or more would itself throw a RangeError.
  bytes(view, what) {
    const n = view.byteLength;
    const p = this.alloc(n, what);
    new Uint8Array(heap(this.M), p, n).set(new Uint8Array(view.buffer, view.byteOffset, n));
    return p;
  }
  string(s, what) { return this.bytes(encoder.encode(`${s}\0`), what); }
  dims(dims, what) { return this.bytes(Float64Array.from(dims), what); }
  free() { for (const p of this.ptrs) this.M._free(p); this.ptrs = []; }
}

// t: a checked {type, data, dims}. Returns a value handle the module owns (freed by
// twinrt_feeds_add or twinrt_value_sequence); fail() throws the module's error.
function tensorValue(M, scope, t, what, fail) {
  const dims = scope.dims(t.dims, what);
  let v;
  if (t.type === 'string') {
    const parts = t.data.map((s) => encoder.encode(s));
    const total = parts.reduce((n, p) => n + p.length, 0);
    const joined = new Uint8Array(total);
    let off = 0;
    for (const p of parts) { joined.set(p, off); off += p.length; }
    const lengths = Uint32Array.from(parts, (p) => p.length);
    v = M._twinrt_value_string_tensor(dims, t.dims.length, scope.bytes(joined, what), total,
      scope.bytes(lengths, what), parts.length);
  } else {
    // The module checks that the tensor takes exactly byteLength bytes, then this copies
    // the data straight into it.
    const n = t.data.byteLength;
    scope.checkFits(n, what);
    v = M._twinrt_value_tensor_for_write(CODE_OF_TYPE[t.type], dims, t.dims.length, n);
    if (!v) fail();
    const p = M._twinrt_tensor_data(M._twinrt_value_tensor_at(v, 0)) >>> 0;
    if (n) new Uint8Array(heap(M), p, n).set(new Uint8Array(t.data.buffer, t.data.byteOffset, n));
    return v >>> 0;
  }
  if (!v) fail();
  return v >>> 0;
}

// x: a checked feed (a tensor, { sequence, elemType } or null); meta: { kind } of the
// input (an optional wraps what it is given).
export function toValue(M, scope, x, meta, what, fail) {
  if (meta && meta.kind === 'optional') {
    if (x === null) return M._twinrt_value_optional(0) >>> 0;
    return M._twinrt_value_optional(toValue(M, scope, x, { kind: 'value' }, what, fail)) >>> 0;
  }
  if (!x.sequence) return tensorValue(M, scope, x, what, fail);
  const items = [];
  try {
    x.sequence.forEach((t, i) => items.push(tensorValue(M, scope, t, `${what} item ${i}`, fail)));
  } catch (e) {
    for (const v of items) M._twinrt_value_free(v);
    throw e;
  }
  const list = scope.bytes(Uint32Array.from(items), what);
  const v = M._twinrt_value_sequence(CODE_OF_TYPE[x.elemType] || 0, list, items.length) >>> 0;
  if (!v) fail();
  return v;
}

export function readTensor(M, t) {
  const type = TYPE_OF_CODE[M._twinrt_tensor_dtype(t)];
  const rank = M._twinrt_tensor_rank(t);
  const dims = [];
  for (let i = 0; i < rank; i++) dims.push(M._twinrt_tensor_dim(t, i));
  const count = dims.reduce((a, b) => a * b, 1);
  if (type === 'string') {
    const data = [];
    for (let i = 0; i < count; i++) {
      const p = M._twinrt_tensor_string(t, i) >>> 0, n = M._twinrt_tensor_string_size(t, i) >>> 0;
      data.push(decoder.decode(new Uint8Array(heap(M), p, n).slice()));
    }
    return new Tensor('string', data, dims);
  }
  const Ctor = TYPED_ARRAYS[type];
  if (!Ctor) throw new TypeError(`twinrt-web: outputs of type ${TYPE_OF_CODE[M._twinrt_tensor_dtype(t)] || 'unknown'} cannot be returned`);
  const nbytes = M._twinrt_tensor_nbytes(t);
  const copy = new Uint8Array(nbytes);
  copy.set(new Uint8Array(heap(M), M._twinrt_tensor_data(t) >>> 0, nbytes));
  return new Tensor(type, new Ctor(copy.buffer), dims);
}

// A Tensor, an array of Tensors (sequence), or null / the inner value (optional).
export function fromValue(M, v) {
  switch (M._twinrt_value_kind(v)) {
    case 1: return readTensor(M, M._twinrt_value_tensor_at(v, 0) >>> 0);
    case 2: {
      const out = [];
      const n = M._twinrt_value_count(v);
      for (let i = 0; i < n; i++) out.push(readTensor(M, M._twinrt_value_tensor_at(v, i) >>> 0));
      return out;
    }
    case 3: {
      const inner = M._twinrt_value_optional_inner(v) >>> 0;
      return inner ? fromValue(M, inner) : null;
    }
    default: return null;
  }
}

// The values of a module outputs list as { name: value }, only those `wanted` says yes to.
export function readOutputs(M, outs, wanted = () => true) {
  const result = {};
  for (let i = 0, n = M._twinrt_outputs_count(outs); i < n; i++) {
    const name = M.UTF8ToString(M._twinrt_outputs_name(outs, i) >>> 0);
    if (wanted(name)) result[name] = fromValue(M, M._twinrt_outputs_value(outs, i) >>> 0);
  }
  return result;
}

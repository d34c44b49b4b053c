// Copies values between JavaScript and the WebAssembly heap: Tensors (and arrays of them
// for sequence inputs, null for an empty optional) in, the same out.
import { Tensor, TYPED_ARRAYS } from './tensor.js';
import { CODE_OF_TYPE, TYPE_OF_CODE } from './dtypes.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// Heap views are made afresh for every use: the memory may have grown since the last one.
// Threaded builds export the (shared) memory; the others refresh Module.HEAPU8 as it grows.
export function heap(M) { return M.wasmMemory ? M.wasmMemory.buffer : M.HEAPU8.buffer; }

export class HeapScope {
  constructor(M, oomError) { this.M = M; this.ptrs = []; this.oomError = oomError; }
  alloc(bytes) {
    const p = this.M._malloc(Math.max(bytes, 1));
    if (!p) throw this.oomError(`could not allocate ${bytes} bytes of WebAssembly memory`);
    this.ptrs.push(p);
    return p;
  }
  bytes(u8) {
    const p = this.alloc(u8.byteLength);
    new Uint8Array(heap(this.M), p, u8.byteLength).set(u8);
    return p;
  }
  string(s) { return this.bytes(encoder.encode(`${s}\0`)); }
  dims(dims) { return this.bytes(new Uint8Array(Float64Array.from(dims).buffer)); }
  free() { for (const p of this.ptrs) this.M._free(p); this.ptrs = []; }
}

function asBytes(data) { return new Uint8Array(data.buffer, data.byteOffset, data.byteLength); }

// A value handle the module owns (freed by twinrt_feeds_add or twinrt_value_sequence).
function tensorValue(M, scope, t, fail) {
  const dims = scope.dims(t.dims);
  let v;
  if (t.type === 'string') {
    const parts = t.data.map((s) => encoder.encode(s));
    const total = parts.reduce((n, p) => n + p.length, 0);
    const joined = new Uint8Array(total);
    let off = 0;
    for (const p of parts) { joined.set(p, off); off += p.length; }
    const lengths = Uint32Array.from(parts, (p) => p.length);
    v = M._twinrt_value_string_tensor(dims, t.dims.length, scope.bytes(joined), scope.bytes(asBytes(lengths)));
  } else {
    const code = CODE_OF_TYPE[t.type];
    if (!code) throw new TypeError(`twinrt-web: unsupported tensor type '${t.type}'`);
    v = M._twinrt_value_tensor(code, dims, t.dims.length, scope.bytes(asBytes(t.data)), t.data.byteLength);
  }
  if (!v) fail();
  return v;
}

// meta: { kind, type } of the input (an optional wraps what it is given; arrays are sequences).
export function toValue(M, scope, x, meta, fail) {
  if (meta && meta.kind === 'optional') {
    if (x === null || x === undefined) return M._twinrt_value_optional(0);
    return M._twinrt_value_optional(toValue(M, scope, x, { ...meta, kind: 'tensor' }, fail));
  }
  if (Array.isArray(x)) {
    const elemType = x.length ? x[0].type : meta?.type;
    const items = x.map((t) => tensorValue(M, scope, t, fail));
    const list = scope.bytes(asBytes(Uint32Array.from(items)));
    return M._twinrt_value_sequence(CODE_OF_TYPE[elemType] || 0, list, items.length);
  }
  if (!(x instanceof Tensor) && !(x && typeof x.type === 'string' && x.data && x.dims))
    throw new TypeError('twinrt-web: feeds must be Tensors');
  return tensorValue(M, scope, x, fail);
}

function readTensor(M, t) {
  const type = TYPE_OF_CODE[M._twinrt_tensor_dtype(t)];
  const rank = M._twinrt_tensor_rank(t);
  const dims = [];
  for (let i = 0; i < rank; i++) dims.push(M._twinrt_tensor_dim(t, i));
  const count = dims.reduce((a, b) => a * b, 1);
  if (type === 'string') {
    const data = [];
    for (let i = 0; i < count; i++) {
      const p = M._twinrt_tensor_string(t, i), n = M._twinrt_tensor_string_size(t, i);
      data.push(decoder.decode(new Uint8Array(heap(M), p, n).slice()));
    }
    return new Tensor('string', data, dims);
  }
  const Ctor = TYPED_ARRAYS[type];
  if (!Ctor) throw new TypeError(`twinrt-web: outputs of type ${TYPE_OF_CODE[M._twinrt_tensor_dtype(t)] || 'unknown'} cannot be returned`);
  const nbytes = M._twinrt_tensor_nbytes(t);
  const copy = new Uint8Array(nbytes);
  copy.set(new Uint8Array(heap(M), M._twinrt_tensor_data(t), nbytes));
  return new Tensor(type, new Ctor(copy.buffer), dims);
}

// A Tensor, an array of Tensors (sequence), or null / the inner value (optional).
export function fromValue(M, v) {
  switch (M._twinrt_value_kind(v)) {
    case 1: return readTensor(M, M._twinrt_value_tensor_at(v, 0));
    case 2: {
      const out = [];
      const n = M._twinrt_value_count(v);
      for (let i = 0; i < n; i++) out.push(readTensor(M, M._twinrt_value_tensor_at(v, i)));
      return out;
    }
    case 3: {
      const inner = M._twinrt_value_optional_inner(v);
      return inner ? fromValue(M, inner) : null;
    }
    default: return null;
  }
}

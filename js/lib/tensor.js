// Tensor: the onnxruntime-web shape (type, data, dims, size) and its type names.

export const TYPED_ARRAYS = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array, bfloat16: Uint16Array,
  int8: Int8Array, int16: Int16Array, int32: Int32Array, int64: BigInt64Array,
  uint8: Uint8Array, uint16: Uint16Array, uint32: Uint32Array, uint64: BigUint64Array,
  bool: Uint8Array,
};

// Type of a tensor built without a type name, from its data.
function typeOfData(data) {
  if (Array.isArray(data)) {
    if (data.every((v) => typeof v === 'string')) return 'string';
    if (data.every((v) => typeof v === 'boolean')) return 'bool';
    return 'float32';
  }
  for (const [type, Ctor] of Object.entries(TYPED_ARRAYS))
    if (data instanceof Ctor && type !== 'float16' && type !== 'bfloat16' && type !== 'bool') return type;
  if (data instanceof Uint8ClampedArray) return 'uint8';
  throw new TypeError('twinrt-web: cannot infer a tensor type from this data');
}

// data given as a plain array (numbers, booleans, bigints) becomes the type's TypedArray.
export function toTypedData(type, data) {
  if (type === 'string') {
    if (!Array.isArray(data) || !data.every((v) => typeof v === 'string'))
      throw new TypeError("twinrt-web: a 'string' tensor needs a string[]");
    return data;
  }
  const Ctor = TYPED_ARRAYS[type];
  if (!Ctor) throw new TypeError(`twinrt-web: unsupported tensor type '${type}'`);
  if (data instanceof Ctor) return data;
  if (type === 'uint8' && data instanceof Uint8ClampedArray) return new Uint8Array(data.buffer, data.byteOffset, data.length);
  if (Array.isArray(data)) {
    if (Ctor === BigInt64Array || Ctor === BigUint64Array) return Ctor.from(data, (v) => BigInt(v));
    return Ctor.from(data, (v) => Number(v));
  }
  throw new TypeError(`twinrt-web: a '${type}' tensor needs a ${Ctor.name} (or a plain array)`);
}

export class Tensor {
  // new Tensor(type, data, dims?) or new Tensor(data, dims?)
  constructor(typeOrData, dataOrDims, maybeDims) {
    let type, data, dims;
    if (typeof typeOrData === 'string') [type, data, dims] = [typeOrData, dataOrDims, maybeDims];
    else [type, data, dims] = [typeOfData(typeOrData), typeOrData, dataOrDims];
    data = toTypedData(type, data);
    dims = dims === undefined ? [data.length] : Array.from(dims);
    const size = sizeOf(dims);
    if (size !== data.length) throw new RangeError(`twinrt-web: tensor dims [${dims}] need ${size} elements, data has ${data.length}`);
    this.type = type;
    this.data = data;
    this.dims = Object.freeze(dims);
    this.size = size;
    this.location = 'cpu';
  }

  getData() { return Promise.resolve(this.data); }
  dispose() {}

  reshape(dims) { return new Tensor(this.type, this.data, dims); }

  // A tensor whose data stays in a GPUBuffer of twinrt-web's WebGPU device (onnxruntime-web's
  // shape): a float32 feed of a WebGPU session, or an output with preferredOutputLocation
  // 'gpu-buffer'. getData() reads it back through `download`; dispose() calls `dispose`.
  static fromGpuBuffer(gpuBuffer, { dataType, dims, download, dispose } = {}) {
    if (!gpuBuffer || typeof gpuBuffer.size !== 'number') throw new TypeError('twinrt-web: Tensor.fromGpuBuffer needs a GPUBuffer');
    if (dataType !== 'float32') throw new TypeError(`twinrt-web: GPU tensors are float32, got '${dataType}'`);
    const size = sizeOf(dims);
    const t = new Tensor('float32', new Float32Array(0), [0]);
    if (size * 4 > gpuBuffer.size) throw new RangeError(`twinrt-web: dims [${dims}] need ${size * 4} bytes, the GPUBuffer has ${gpuBuffer.size}`);
    let data = null;
    Object.defineProperty(t, 'data', {
      get() {
        if (data) return data;
        throw new Error("twinrt-web: the tensor's data is on the GPU (location 'gpu-buffer'): await getData() first");
      },
    });
    Object.assign(t, { dims: Object.freeze(Array.from(dims)), size, location: 'gpu-buffer', gpuBuffer });
    t.getData = async () => {
      if (!data) {
        if (!download) throw new Error('twinrt-web: this GPU tensor was made without a download function');
        data = await download();
      }
      return data;
    };
    t.dispose = () => {
      if (t.location === 'none') return;
      t.location = 'none';
      data = null;
      if (dispose) dispose();
    };
    return t;
  }
}

function sizeOf(dims) {
  if (!Array.isArray(dims) && !ArrayBuffer.isView(dims)) throw new TypeError('twinrt-web: tensor dims must be an array');
  let size = 1;
  for (const d of dims) {
    if (!Number.isSafeInteger(d) || d < 0) throw new TypeError(`twinrt-web: tensor dims must be non-negative integers, got [${dims}]`);
    size *= d;
  }
  return size;
}

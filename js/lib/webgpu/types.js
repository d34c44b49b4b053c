// Element types of GPU buffers. A buffer is tagged with the ONNX type it holds (float32 when
// untagged); int64 lives as two u32 words per element, low word first: a BigInt64Array's bytes.
const TYPE = Symbol('twinrt element type');

export const GPU_TYPES = {
  float32: { wgsl: 'f32', bytes: 4 },
  float16: { wgsl: 'f16', bytes: 2 },  // needs shader-f16
  int32: { wgsl: 'i32', bytes: 4 },
  int64: { wgsl: 'u32', bytes: 8 },
};

export const typeOf = (buffer) => buffer[TYPE] || 'float32';

export function tagType(buffer, type) {
  if (type !== 'float32') buffer[TYPE] = type;
  return buffer;
}

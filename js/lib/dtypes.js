// ONNX TensorProto.DataType codes (what the WebAssembly module speaks) and type names.
export const CODE_OF_TYPE = {
  float32: 1, uint8: 2, int8: 3, uint16: 4, int16: 5, int32: 6, int64: 7, string: 8, bool: 9,
  float16: 10, float64: 11, uint32: 12, uint64: 13, bfloat16: 16,
};
export const TYPE_OF_CODE = Object.fromEntries(Object.entries(CODE_OF_TYPE).map(([t, c]) => [c, t]));
// Status codes of include/twinrt/status.h, for Error.code.
export const STATUS_NAMES = ['OK', 'INVALID_MODEL', 'INVALID_ARGUMENT', 'NOT_IMPLEMENTED', 'IO_ERROR',
  'OUT_OF_MEMORY', 'INTERNAL', 'UNAVAILABLE'];

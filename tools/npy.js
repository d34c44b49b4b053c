// Minimal .npy (format 1.0/2.0/3.0) reader and writer for the dtypes ONNX Runtime takes and
// returns: float16/32/64, int8..int64, uint8..uint64 and bool, little-endian, C order.
// float16 travels as its bit patterns in a Uint16Array (what onnxruntime takes and gives
// when the JS engine has no Float16Array).
'use strict';
const fs = require('fs');

// Type letter + byte size ('f4') -> [ONNX Runtime tensor type, typed array].
const TYPES = {
  f2: ['float16', Uint16Array], f4: ['float32', Float32Array], f8: ['float64', Float64Array],
  i1: ['int8', Int8Array], i2: ['int16', Int16Array], i4: ['int32', Int32Array], i8: ['int64', BigInt64Array],
  u1: ['uint8', Uint8Array], u2: ['uint16', Uint16Array], u4: ['uint32', Uint32Array], u8: ['uint64', BigUint64Array],
  b1: ['bool', Uint8Array],
};
const CODE_BY_TYPE = Object.fromEntries(Object.entries(TYPES).map(([code, [type]]) => [type, code]));

function headerField(header, file, name, pattern) {
  const m = pattern.exec(header);
  if (!m) throw new Error(`${file}: .npy header has no '${name}'`);
  return m[1];
}

function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf.length < 10 || buf.toString('latin1', 0, 6) !== '\x93NUMPY') throw new Error(`${file}: not a .npy file`);
  const major = buf[6];
  const hlen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const hstart = major === 1 ? 10 : 12;
  const start = hstart + hlen;
  if (start > buf.length) throw new Error(`${file}: truncated .npy header`);
  const header = buf.toString('latin1', hstart, start);
  const descr = headerField(header, file, 'descr', /'descr':\s*'([^']+)'/);
  if (/'fortran_order':\s*True/.test(header)) throw new Error(`${file}: fortran order is not supported`);
  const shapeText = headerField(header, file, 'shape', /'shape':\s*\(([^)]*)\)/);
  const dims = shapeText.split(',').filter((s) => s.trim()).map(Number);
  const code = descr.slice(1);
  if (!'<|='.includes(descr[0]) || !TYPES[code]) throw new Error(`${file}: unsupported dtype ${descr}`);
  const [type, Ctor] = TYPES[code];
  const count = dims.reduce((a, b) => a * b, 1);
  const byteLength = count * Ctor.BYTES_PER_ELEMENT;
  if (start + byteLength > buf.length) throw new Error(`${file}: truncated: ${byteLength} data bytes expected`);
  // A copy, so the typed array is aligned and owns exactly its bytes.
  const data = new Ctor(buf.buffer.slice(buf.byteOffset + start, buf.byteOffset + start + byteLength));
  return { type, dims, data };
}

function writeNpy(file, type, dims, data) {
  const code = CODE_BY_TYPE[type];
  if (!code) throw new Error(`cannot write dtype ${type} to .npy`);
  const descr = (code.endsWith('1') ? '|' : '<') + code;
  const shape = dims.length === 1 ? `(${dims[0]},)` : `(${dims.join(', ')})`;
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shape}, }`;
  const pad = 64 - ((10 + header.length + 1) % 64);
  header += ' '.repeat(pad % 64) + '\n';
  const pre = Buffer.alloc(10);
  Buffer.from('\x93NUMPY', 'latin1').copy(pre);
  pre[6] = 1; pre[7] = 0;
  pre.writeUInt16LE(header.length, 8);
  // Header and body written separately: no second copy of a large tensor in memory.
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, Buffer.concat([pre, Buffer.from(header, 'latin1')]));
    fs.writeSync(fd, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  } finally {
    fs.closeSync(fd);
  }
}

// The typed array ONNX Runtime uses for `type` (for data that arrives as raw bytes).
function arrayTypeFor(type) {
  const code = CODE_BY_TYPE[type];
  if (!code) throw new Error(`unsupported tensor type ${type}`);
  return TYPES[code][1];
}

module.exports = { readNpy, writeNpy, arrayTypeFor };

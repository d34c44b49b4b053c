// Reads a NumPy .npy file (little-endian numeric dtypes, C order) into { type, dims, data }.
const DESCR = {
  '<f4': ['float32', Float32Array], '<f8': ['float64', Float64Array], '<f2': ['float16', Uint16Array],
  '|i1': ['int8', Int8Array], '<i2': ['int16', Int16Array], '<i4': ['int32', Int32Array], '<i8': ['int64', BigInt64Array],
  '|u1': ['uint8', Uint8Array], '<u2': ['uint16', Uint16Array], '<u4': ['uint32', Uint32Array], '<u8': ['uint64', BigUint64Array],
  '|b1': ['bool', Uint8Array],
};

export function readNpy(buffer) {
  const u8 = new Uint8Array(buffer);
  const magic = String.fromCharCode(...u8.subarray(0, 6));
  if (magic !== '\x93NUMPY') throw new Error('not a .npy file');
  const view = new DataView(buffer);
  const major = u8[6];
  const headerLength = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const start = (major === 1 ? 10 : 12) + headerLength;
  const header = new TextDecoder().decode(u8.subarray(major === 1 ? 10 : 12, start));
  const descr = /'descr':\s*'([^']+)'/.exec(header)?.[1];
  if (/'fortran_order':\s*True/.test(header)) throw new Error('.npy in Fortran order is not supported');
  const dims = /'shape':\s*\(([^)]*)\)/.exec(header)[1].split(',').filter((s) => s.trim()).map(Number);
  if (!DESCR[descr]) throw new Error(`.npy dtype ${descr} is not supported`);
  const [type, Ctor] = DESCR[descr];
  return { type, dims, data: new Ctor(buffer.slice(start)) };
}

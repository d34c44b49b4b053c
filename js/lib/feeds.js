// Checks a run's feeds before anything reaches the WebAssembly heap: Tensors, plain
// {type, data, dims} objects, arrays of them (sequences) and null (empty optional). Each
// value is read once into a plain object, so getters and later mutation of a Tensor's
// data cannot make the copy into the heap differ from what was checked. The C side checks
// counts and bytes again (js/src/binding_values.cc).
import { TYPED_ARRAYS, toTypedData } from './tensor.js';
import { TwinrtError } from './errors.js';

const invalid = (message) => new TwinrtError(message, 'INVALID_ARGUMENT');

function describe(x) {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'array';
  return typeof x;
}

// [2,3], with anything that is not a number quoted: ["3"] must not read as [3].
const formatDims = (dims) => `[${dims.map((d) => (typeof d === 'number' ? d : JSON.stringify(d) ?? String(d)))}]`;

// Number of elements of `dims`, or an error naming `what`.
function countElements(what, dims) {
  if (!Array.isArray(dims)) throw invalid(`${what}: dims must be an array`);
  for (const d of dims)
    if (!Number.isSafeInteger(d) || d < 0) throw invalid(`${what}: dims ${formatDims(dims)} must be non-negative safe integers`);
  if (dims.includes(0)) return 0;
  let n = 1;
  for (const d of dims) {
    n *= d;
    if (!Number.isSafeInteger(n)) throw invalid(`${what}: dims ${formatDims(dims)} have more than 2^53-1 elements`);
  }
  return n;
}

function checkData(what, type, data) {
  if (type === 'string') {
    if (!Array.isArray(data) || !data.every((s) => typeof s === 'string'))
      throw invalid(`${what}: a string tensor's data must be an array of strings`);
    return Array.from(data);
  }
  const Ctor = TYPED_ARRAYS[type];
  if (!Ctor) throw invalid(`${what}: unsupported tensor type '${type}'`);
  if (ArrayBuffer.isView(data) && !(data instanceof Ctor) && !(type === 'uint8' && data instanceof Uint8ClampedArray))
    throw invalid(`${what}: a ${type} tensor needs a ${Ctor.name}, got ${data.constructor.name}`);
  try {
    return toTypedData(type, data);
  } catch (e) {
    throw invalid(`${what}: ${e.message.replace(/^twinrt-web: /, '')}`);
  }
}

// A tensor as {type, data, dims}, its data of the type's array with numel(dims) elements.
function checkTensor(what, x) {
  if (!x || typeof x !== 'object' || Array.isArray(x)) throw invalid(`${what} must be a Tensor, got ${describe(x)}`);
  if (x.gpuBuffer) throw invalid(`${what} is a GPU tensor: only a WebGPU session's float32 tensor inputs take one`);
  const type = x.type, rawDims = x.dims;
  if (typeof type !== 'string') throw invalid(`${what}: type must be a string`);
  const dims = Array.isArray(rawDims) ? Array.from(rawDims) : rawDims;
  const count = countElements(what, dims);
  const data = checkData(what, type, x.data);
  if (data.length !== count)
    throw invalid(`${what} has dims [${dims}] (${count} element${count === 1 ? '' : 's'}) but its data has ${data.length}`);
  return { type, data, dims };
}

// meta: the input's metadata ({ isTensor, kind, type }), undefined for an unknown name
// (the C side names it). Returns the checked value: a tensor, { sequence: [tensors],
// elemType }, or null (an empty optional).
function checkFeed(name, x, meta) {
  const what = `input '${name}'`;
  const kind = meta ? (meta.isTensor ? 'tensor' : meta.kind) : undefined;
  if (kind === 'optional' && (x === null || x === undefined)) return null;
  if (!Array.isArray(x)) return checkTensor(what, x);
  const declared = meta && meta.type !== 'undefined' ? meta.type : undefined;
  const items = x.map((t, i) => checkTensor(`${what} item ${i}`, t));
  const elemType = declared || (items.length ? items[0].type : undefined);
  items.forEach((t, i) => {
    if (t.type !== elemType) throw invalid(`${what} item ${i} must be ${elemType} (the sequence's element type), got ${t.type}`);
  });
  return { sequence: items, elemType };
}

// feeds: {name: value}; inputMetadata: the session's. Returns [[name, checked value]].
export function checkFeeds(feeds, inputMetadata) {
  const meta = new Map(inputMetadata.map((m) => [m.name, m]));
  return Object.entries(feeds).map(([name, x]) => {
    if (name.includes('\0')) throw invalid(`feed name '${name.replace(/\0/g, '\\0')}' contains a NUL character`);
    return [name, checkFeed(name, x, meta.get(name))];
  });
}

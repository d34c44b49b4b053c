// Which build of the module this JavaScript engine can run: SIMD128 and/or threads.

// (module (func (result v128) i32.const 0 i8x16.splat i8x16.popcnt))
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0,
  65, 0, 253, 15, 253, 98, 11]);

export function simdSupported() {
  try { return WebAssembly.validate(SIMD_PROBE); } catch { return false; }
}

// Threads need shared WebAssembly memory, which browsers only give cross-origin isolated
// pages (COOP + COEP headers); Node always has it.
export function threadsSupported(isNode) {
  if (typeof SharedArrayBuffer === 'undefined') return false;
  if (!isNode && !globalThis.crossOriginIsolated) return false;
  try {
    const m = new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
    return m.buffer instanceof SharedArrayBuffer;
  } catch { return false; }
}

// env.wasm settings and the engine's features -> the variant to load and its thread count.
export function chooseVariant(wasm, isNode, hardwareThreads) {
  const simd = wasm.simd !== false && simdSupported();
  let threads = Number.isInteger(wasm.numThreads) && wasm.numThreads > 0
    ? wasm.numThreads
    : Math.max(1, Math.min(4, Math.ceil(hardwareThreads / 2)));
  if (threads > 1 && !threadsSupported(isNode)) threads = 1;
  const names = { 'true,true': 'simd-threaded', 'true,false': 'simd', 'false,true': 'threaded', 'false,false': 'baseline' };
  return { variant: names[`${simd},${threads > 1}`], simd, threads };
}

// The native twinrt CLI as the oracle for bit-identity: `twinrt run --out DIR` writes each
// output as output_<i>.npy (sequence elements as output_<i>_<j>.npy).
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
export const { readNpy, writeNpy } = require(path.join(ROOT, 'tools/npy.js'));

export const NATIVE = process.env.TWINRT_BIN || path.join(ROOT, 'build/twinrt');
export const nativeAvailable = () => fs.existsSync(NATIVE);

// Runs the CLI; returns null when it failed (with its stderr in .error).
export function runNative(model, args, outDir) {
  fs.rmSync(outDir, { recursive: true, force: true });
  const r = spawnSync(NATIVE, ['run', model, ...args, '--out', outDir], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 << 20 });
  return { ok: r.status === 0, error: r.error ? r.error.message : `${r.stderr}`.trim() || `exit status ${r.status}` };
}

// The .npy files the CLI wrote for output i: one tensor, a sequence's elements, or nothing.
export function nativeOutput(outDir, i) {
  const single = path.join(outDir, `output_${i}.npy`);
  if (fs.existsSync(single)) return readNpy(single);
  const items = [];
  for (let j = 0; fs.existsSync(path.join(outDir, `output_${i}_${j}.npy`)); j++) items.push(readNpy(path.join(outDir, `output_${i}_${j}.npy`)));
  return items.length ? items : null;
}

function bytesOf(data) { return Buffer.from(data.buffer, data.byteOffset, data.byteLength); }

// bfloat16 bits widened to float32, as the CLI writes them.
function widenBfloat16(t) {
  const out = new Uint32Array(t.data.length);
  for (let i = 0; i < out.length; i++) out[i] = t.data[i] << 16;
  return { type: 'float32', dims: t.dims, data: new Float32Array(out.buffer) };
}

// '' when the wasm value has the same dtype, shape and bytes as the CLI's .npy; strings
// (which the CLI cannot write) compare as equal.
export function sameBits(wasm, npy) {
  if (wasm === null) return npy === null ? '' : 'wasm gave no value, native did';
  if (Array.isArray(wasm)) {
    if (wasm.length === 0 && npy === null) return '';
    if (!Array.isArray(npy) || npy.length !== wasm.length) return 'sequence lengths differ';
    for (let j = 0; j < wasm.length; j++) {
      const m = sameBits(wasm[j], npy[j]);
      if (m) return `element ${j}: ${m}`;
    }
    return '';
  }
  if (wasm.type === 'string') return '';
  if (npy === null || Array.isArray(npy)) return 'native gave no tensor';
  const t = wasm.type === 'bfloat16' ? widenBfloat16(wasm) : wasm;
  if (t.type !== npy.type) return `dtype ${t.type} vs native ${npy.type}`;
  if (t.dims.join() !== npy.dims.join()) return `shape [${t.dims}] vs native [${npy.dims}]`;
  const a = bytesOf(t.data), b = bytesOf(npy.data);
  if (a.equals(b)) return '';
  let first = 0;
  while (a[first] === b[first]) first++;
  return `bytes differ from byte ${first}`;
}

// Test page: window.twinrtRun runs a model with twinrt-web and returns its outputs' bytes.
import { InferenceSession, Tensor, env } from '../../js/lib/browser.js';

const toBase64 = (u8) => { let s = ''; for (let i = 0; i < u8.length; i += 0x8000) s += String.fromCharCode(...u8.subarray(i, i + 0x8000)); return btoa(s); };
const fromBase64 = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));

// { model: URL, input: { name, dims, base64 float32 }, mode, threads, proxy }
window.twinrtRun = async ({ model, input, mode, threads, proxy }) => {
  env.wasm.numThreads = threads;
  env.wasm.proxy = proxy;
  const session = await InferenceSession.create(model, { mode });
  const data = new Float32Array(fromBase64(input.base64).buffer);
  const out = await session.run({ [input.name]: new Tensor('float32', data, input.dims) });
  const outputs = {};
  for (const [name, t] of Object.entries(out))
    outputs[name] = { type: t.type, dims: [...t.dims], base64: toBase64(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength)) };
  let error = '';
  try { await session.run({ [input.name]: new Tensor('int32', new Int32Array(data.length), input.dims) }); } catch (e) { error = e.message; }
  await session.release();
  return { outputs, runtime: session.runtime, isolated: globalThis.crossOriginIsolated === true, error };
};
document.getElementById('status').textContent = 'ready';

// env: the onnxruntime-web settings twinrt-web reads when its module first loads.
import { getDevice } from './webgpu/device.js';

export const env = {
  wasm: {
    // Threads for sessions (0 or undefined: half the hardware threads, at most 4). More
    // than 1 needs SharedArrayBuffer: Node, or a cross-origin isolated page.
    numThreads: 0,
    // false: load the build without SIMD128 even where it is supported.
    simd: true,
    // Where the dist/ folder of the package is served from (a URL prefix ending in '/').
    wasmPaths: undefined,
    // true: sessions run in a worker (Web Worker / worker_threads), the caller never blocks.
    proxy: false,
  },
  webgpu: {
    // twinrt-web's GPUDevice, as a Promise (null without an adapter): the buffers of GPU
    // tensor feeds (Tensor.fromGpuBuffer) must be made on it.
    get device() { return getDevice().then((g) => g && g.device); },
  },
  logLevel: 'warning',
  versions: { web: '0.1.0' },
};

// How the package reaches files, the module and workers under Node.js (20+, no flags).
import fs from 'node:fs/promises';
import os from 'node:os';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

const distUrl = new URL('../dist/', import.meta.url);

function isHttp(s) { return /^https?:\/\//i.test(s); }

export const platform = {
  isNode: true,

  hardwareThreads() { return os.availableParallelism ? os.availableParallelism() : os.cpus().length; },

  // A path, a file: URL or an http(s) URL.
  async readSource(source) {
    if (isHttp(source)) {
      const r = await fetch(source);
      if (!r.ok) throw new Error(`twinrt-web: cannot fetch ${source}: HTTP ${r.status}`);
      return new Uint8Array(await r.arrayBuffer());
    }
    const file = source.startsWith('file:') ? fileURLToPath(source) : source;
    return new Uint8Array(await fs.readFile(file));
  },

  // The wasm bytes are read here and passed in: emscripten's loader would fetch() the file
  // path, which Node's fetch cannot do.
  async instantiate(choice, wasmPaths) {
    const base = wasmPaths ? new URL(`${choice.variant}/`, wasmPaths.startsWith('file:') ? wasmPaths : pathToFileURL(`${wasmPaths.replace(/\/?$/, '/')}`))
      : new URL(`${choice.variant}/`, distUrl);
    const script = new URL('twinrt.mjs', base);
    try {
      await fs.access(script);
    } catch {
      throw new Error(`twinrt-web: ${fileURLToPath(script)} is missing: build it with scripts/build-wasm.sh ${choice.variant}`);
    }
    const { default: factory } = await import(script.href);
    const wasmBinary = await fs.readFile(fileURLToPath(new URL('twinrt.wasm', base)));
    const M = await factory({
      wasmBinary,
      nodeRequire: createRequire(script),
      nodeDirname: fileURLToPath(base),
      twinrtPoolSize: Math.max(0, choice.threads - 1),
    });
    // Idle pthread workers must not keep the process alive (sessions never need more
    // workers than the pool, so these are all there will be).
    if (M.PThread) for (const w of [...M.PThread.unusedWorkers, ...M.PThread.runningWorkers]) w.unref();
    return M;
  },

  createWorker() {
    const w = new Worker(new URL('./proxy-worker.js', import.meta.url));
    w.unref();  // an idle proxy must not keep the process alive; busy() refs it during calls
    return {
      post: (m) => w.postMessage(m), onMessage: (cb) => w.on('message', cb), terminate: () => w.terminate(),
      busy: (yes) => (yes ? w.ref() : w.unref()),
    };
  },
};

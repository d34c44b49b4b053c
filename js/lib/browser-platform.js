// How the package reaches models, the module and workers in a browser (or a Web Worker).
const distUrl = new URL('../dist/', import.meta.url);

export const platform = {
  isNode: false,

  hardwareThreads() { return (globalThis.navigator && navigator.hardwareConcurrency) || 1; },

  async readSource(url) {
    const r = await fetch(url);
    if (!r.ok) throw new Error(`twinrt-web: cannot fetch ${url}: HTTP ${r.status}`);
    return new Uint8Array(await r.arrayBuffer());
  },

  async instantiate(choice, wasmPaths) {
    const base = new URL(`${choice.variant}/`, wasmPaths ? new URL(wasmPaths, globalThis.location?.href) : distUrl);
    const script = new URL('twinrt.mjs', base).href;
    const { default: factory } = await import(/* webpackIgnore: true */ script);
    return factory({
      locateFile: (file) => new URL(file, base).href,
      mainScriptUrlOrBlob: script,
      twinrtPoolSize: Math.max(0, choice.threads - 1),
    });
  },

  createWorker() {
    const w = new Worker(new URL('./proxy-worker.js', import.meta.url), { type: 'module' });
    return { post: (m) => w.postMessage(m), onMessage: (cb) => { w.onmessage = (e) => cb(e.data); }, terminate: () => w.terminate() };
  },
};

// Runs sessions in this thread. When an abort stops the WebAssembly instance (it should not
// happen: errors are values), the next call starts a new instance and re-creates the session.
import { WasmRuntime } from './runtime.js';
import { chooseVariant } from './features.js';

export class LocalBackend {
  // platform: see node.js / browser.js. wasmSettings: a copy of env.wasm.
  constructor(platform, wasmSettings) {
    this.platform = platform;
    this.wasm = { ...wasmSettings };
    this.loading = null;
    this.sessions = new Map();
    this.nextId = 1;
  }

  runtime() {
    if (!this.loading) {
      const choice = chooseVariant(this.wasm, this.platform.isNode, this.platform.hardwareThreads());
      this.loading = this.platform.instantiate(choice, this.wasm.wasmPaths).then((M) => new WasmRuntime(M, choice));
      this.loading.catch(() => { this.loading = null; });
    }
    return this.loading.then((rt) => {
      if (!rt.dead) return rt;
      this.loading = null;
      return this.runtime();
    });
  }

  async createSession(model, options) {
    const rt = await this.runtime();
    const info = rt.createSession(model, options);
    const id = this.nextId++;
    this.sessions.set(id, { rt, inner: info.id, model, options });
    return { ...info, id, runtime: { variant: rt.info.variant, simd: rt.info.simd, threads: info.threads } };
  }

  async run(id, feeds, fetches) {
    const s = this.sessions.get(id);
    if (!s) throw new Error('twinrt-web: the session was released');
    if (s.rt.dead) {
      const rt = await this.runtime();
      s.inner = rt.createSession(s.model, s.options).id;
      s.rt = rt;
    }
    return s.rt.run(s.inner, feeds, fetches);
  }

  async release(id) {
    const s = this.sessions.get(id);
    this.sessions.delete(id);
    if (s) s.rt.release(s.inner);
  }
}

// Entry of the proxy worker (env.wasm.proxy): sessions run here, off the caller's thread.
import { serveProxy } from './proxy.js';
import { LocalBackend } from './backend.js';

const isNode = typeof process === 'object' && process.versions && process.versions.node;
// Messages that arrive while the platform module loads wait here (a Web Worker drops
// messages that find no listener).
const early = [];
let deliver = (m) => early.push(m);
if (!isNode) self.onmessage = (e) => deliver(e.data);

const { platform } = await import(isNode ? './node-platform.js' : './browser-platform.js');
let port;
if (isNode) {
  const { parentPort } = await import('node:worker_threads');
  port = { post: (m) => parentPort.postMessage(m), onMessage: (cb) => parentPort.on('message', cb) };
} else {
  port = { post: (m) => self.postMessage(m), onMessage: (cb) => { deliver = cb; for (const m of early.splice(0)) cb(m); } };
}
serveProxy(port, (wasm) => new LocalBackend(platform, wasm));

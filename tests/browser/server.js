// A static file server on 127.0.0.1 for the browser tests: serves the repository, with the
// cross-origin isolation headers (COOP + COEP) that WebAssembly threads need unless told not to.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.json': 'application/json',
  '.wasm': 'application/wasm', '.css': 'text/css', '.onnx': 'application/octet-stream', '.npy': 'application/octet-stream' };

// root: folder served at '/'. Paths starting with /noiso/ are served without the isolation
// headers (same files), to see the package fall back to one thread.
export function serve(root) {
  const server = http.createServer((req, res) => {
    let url = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const isolated = !url.startsWith('/noiso/');
    if (!isolated) url = url.slice('/noiso'.length);
    const file = path.join(root, path.normalize(url));
    if (!file.startsWith(root + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    const headers = { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream', 'Cache-Control': 'no-store' };
    if (isolated) Object.assign(headers, { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' });
    res.writeHead(200, headers);
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((r) => server.close(r)),
  })));
}

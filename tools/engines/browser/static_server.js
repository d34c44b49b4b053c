// A static file server on 127.0.0.1 for the browser engines: the page, the engine's
// script and .wasm files (under /lib/), and the model being loaded (/model). Every
// response is cross-origin isolated (COOP/COEP) so WebAssembly threads are allowed.
'use strict';
const fs = require('fs');
const http = require('http');
const path = require('path');

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript',
                '.wasm': 'application/wasm', '.json': 'application/json' };
const HEADERS = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp',
                  'Cross-Origin-Resource-Policy': 'same-origin', 'Cache-Control': 'no-store' };

// files: { '/exact/path': file }; dirs: { '/prefix/': directory }; getModel() names the model file.
function startServer({ files, dirs }, getModel) {
  const resolve = (urlPath) => {
    if (urlPath === '/model') return getModel();
    if (Object.hasOwn(files, urlPath)) return files[urlPath];
    for (const [prefix, dir] of Object.entries(dirs)) {
      if (!urlPath.startsWith(prefix)) continue;
      const file = path.resolve(dir, '.' + path.posix.normalize('/' + urlPath.slice(prefix.length)));
      if (file.startsWith(path.resolve(dir) + path.sep)) return file;  // never outside `dir`
    }
    return null;
  };
  const server = http.createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname);
    if (urlPath === '/favicon.ico') {  // asked for by every page; an error in the console otherwise
      res.writeHead(204, HEADERS).end();
      return;
    }
    const file = resolve(urlPath);
    if (!file) {
      res.writeHead(404, HEADERS).end();
      return;
    }
    fs.readFile(file, (err, body) => {
      if (err) res.writeHead(404, HEADERS).end();
      else res.writeHead(200, { ...HEADERS, 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream' }).end(body);
    });
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolvePromise({ server, url: `http://127.0.0.1:${server.address().port}` }));
  });
}

module.exports = { startServer };

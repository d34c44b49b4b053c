// Engine name -> how to start it. Each entry returns a Backend (see ../runner.js):
//   { description, async load(modelPath) -> Model, async close() }
// Adding an engine is one line here plus, usually, a small module next to this file.
'use strict';

const BACKENDS = {
  ort: (options) => require('./ort').start(options),
  'ort-web': (options) => require('./ort_web').start(options),
  'ort-browser': (options) => require('./ort_browser').start(options, { webgpu: false }),
  'ort-browser-webgpu': (options) => require('./ort_browser').start(options, { webgpu: true }),
  'ort-webgpu': (options) => require('./ort_browser').start(options, { webgpu: true }),  // issue 13's name
  'twinrt-wasm': (options) => require('./twinrt_wasm').startNode(options, 'default'),
  'twinrt-wasm-ref': (options) => require('./twinrt_wasm').startNode(options, 'reference'),
  'twinrt-wasm-exact': (options) => require('./twinrt_wasm').startNode(options, 'exact'),
  'twinrt-browser': (options) => require('./twinrt_wasm').startBrowser(options, 'default'),
  'twinrt-browser-ref': (options) => require('./twinrt_wasm').startBrowser(options, 'reference'),
  'twinrt-browser-exact': (options) => require('./twinrt_wasm').startBrowser(options, 'exact'),
  'twinrt-webgpu': (options) => require('./twinrt_wasm').startBrowser(options, 'default', { webgpu: true }),
  'twinrt-webgpu-exact': (options) => require('./twinrt_wasm').startBrowser(options, 'exact', { webgpu: true }),
};

module.exports = { BACKENDS };

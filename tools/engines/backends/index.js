// Engine name -> how to start it. Each entry returns a Backend (see ../runner.js):
//   { description, async load(modelPath) -> Model, async close() }
// Adding an engine is one line here plus, usually, a small module next to this file.
'use strict';

const BACKENDS = {
  ort: (options) => require('./ort').start(options),
  'ort-web': (options) => require('./ort_web').start(options),
  'ort-browser': (options) => require('./ort_browser').start(options, { webgpu: false }),
  'ort-browser-webgpu': (options) => require('./ort_browser').start(options, { webgpu: true }),
};

module.exports = { BACKENDS };

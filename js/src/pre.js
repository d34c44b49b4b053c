// Emscripten 3.1.6's ES-module output still calls require() and reads __dirname under Node;
// the Node entry (js/lib/node.js) passes them in. Pthread workers set a global require.
var require = Module['nodeRequire'] || globalThis.require;
var __dirname = Module['nodeDirname'] || '';

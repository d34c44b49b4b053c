// Errors a backend raises, classified so twinrt can map them onto its status codes:
// 'unavailable' (something is not installed or cannot start: the message says how to
// install it), 'invalid_model' (the engine rejected the model), 'failed' (anything else).
'use strict';
const fs = require('fs');
const path = require('path');

const TOOLS_DIR = path.resolve(__dirname, '..');
const NPM_INSTALL = `cd ${TOOLS_DIR} && npm install --ignore-scripts --no-audit --no-fund`;

function classified(code, message) {
  const e = new Error(message);
  e.code = code;
  return e;
}

const unavailable = (message) => classified('unavailable', message);

// An error thrown by an engine while loading a model keeps the engine's own text.
function asModelError(error) {
  if (error && error.code === 'unavailable') return error;
  return classified('invalid_model', error && error.message ? error.message : String(error));
}

// require() of an npm package of tools/, or an 'unavailable' error with the install command.
function requirePackage(name) {
  try {
    return require(require.resolve(name, { paths: [TOOLS_DIR] }));
  } catch (e) {
    if (e.code === 'MODULE_NOT_FOUND' && String(e.message).includes(name))
      throw unavailable(`${name} is not installed; run: ${NPM_INSTALL}`);
    throw unavailable(`${name} cannot be loaded: ${e.message}`);
  }
}

// Read from the file: some packages do not export their package.json.
function packageVersion(name) {
  const file = path.join(TOOLS_DIR, 'node_modules', name, 'package.json');
  return JSON.parse(fs.readFileSync(file, 'utf8')).version;
}

module.exports = { unavailable, asModelError, requirePackage, packageVersion, TOOLS_DIR, NPM_INSTALL };

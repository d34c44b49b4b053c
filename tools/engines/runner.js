#!/usr/bin/env node
// Persistent engine runner. twinrt starts `node runner.js --backend NAME --options JSON`
// and speaks JSON lines: one command per line on stdin, one reply per line on stdout.
// Tensors travel as .npy files. Protocol (docs/engines.md):
//   (on start)                                     -> {ok, description} | {ok:false, code, error}
//   {cmd:"load", model}                             -> {ok, description, inputNames, outputNames}
//   {cmd:"run", inputs:{name:npy}, outputs:[name], out_dir}
//                                                  -> {ok, files:[npy per output, in order], description?}
//   {cmd:"time", inputs:{name:npy}, runs}           -> {ok, ms:[one per run]}
//   {cmd:"memory"}                                 -> {ok, peak_rss_bytes, start_rss_bytes} (VmHWM now, at start)
//   {cmd:"quit"}                                   -> {ok} and exit
// Failures answer {ok:false, code:"unavailable"|"invalid_model"|"failed", error:"<engine text>"}.
'use strict';
const fs = require('fs');
// Peak resident memory of this process (VmHWM), in bytes; -1 where /proc is missing.
const vmHwmBytes = () => {
  try {
    return Number(/VmHWM:\s*(\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;
  } catch (e) {
    return -1;
  }
};
const START_RSS_BYTES = vmHwmBytes();  // Node alone: engines load their libraries later
const path = require('path');
const readline = require('readline');
const { readNpy, writeNpy } = require('../npy');
const { BACKENDS } = require('./backends');

// stdout carries only protocol replies; whatever a library prints goes to stderr.
const writeReply = process.stdout.write.bind(process.stdout);
console.log = console.info = console.debug = (...args) => console.error(...args);
const reply = (obj) => writeReply(JSON.stringify(obj) + '\n');
const failure = (e) => ({ ok: false, code: e && e.code === 'unavailable' || e && e.code === 'invalid_model' ? e.code : 'failed',
                           error: e && e.message ? e.message : String(e) });

function parseArgs(argv) {
  const args = { backend: null, options: {} };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--backend') args.backend = argv[++i];
    else if (argv[i] === '--options') args.options = JSON.parse(argv[++i]);
    else throw new Error(`unexpected argument '${argv[i]}' (usage: runner.js --backend NAME [--options JSON])`);
  }
  if (!BACKENDS[args.backend])
    throw new Error(`unknown backend '${args.backend}' (known: ${Object.keys(BACKENDS).join(', ')})`);
  return args;
}

const readFeeds = (inputs) => Object.fromEntries(Object.entries(inputs || {}).map(([n, f]) => [n, readNpy(f)]));

async function handle(state, msg) {
  switch (msg.cmd) {
    case 'load': {
      if (state.model) await state.model.close();
      state.model = null;
      state.model = await state.backend.load(msg.model);
      return { ok: true, description: state.model.description || state.backend.description, inputNames: state.model.inputNames,
               outputNames: state.model.outputNames };
    }
    case 'run': {
      if (!state.model) throw new Error('no model loaded');
      const names = msg.outputs && msg.outputs.length ? msg.outputs : state.model.outputNames;
      const results = await state.model.run(readFeeds(msg.inputs), names);
      const files = names.map((name, i) => {
        const t = results[name];
        if (!t) throw new Error(`the engine returned no output '${name}'`);
        const file = path.join(msg.out_dir, `${i}.npy`);
        writeNpy(file, t.type, t.dims, t.data);
        delete results[name];  // written: let the collector take it before the next one
        return file;
      });
      // A backend whose description depends on the run (where WebGPU put each node) updates it.
      return state.model.description ? { ok: true, files, description: state.model.description } : { ok: true, files };
    }
    case 'time': {
      if (!state.model) throw new Error('no model loaded');
      return { ok: true, ms: await state.model.time(readFeeds(msg.inputs), msg.runs) };
    }
    case 'memory':
      return { ok: true, peak_rss_bytes: vmHwmBytes(), start_rss_bytes: START_RSS_BYTES };
    case 'quit':
      return { ok: true };
    default:
      throw new Error(`unknown command '${msg.cmd}'`);
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const state = { backend: null, model: null };
  try {
    state.backend = await BACKENDS[args.backend](args.options);
  } catch (e) {
    reply(failure(e));
    process.exit(1);
  }
  reply({ ok: true, description: state.backend.description });
  const lines = readline.createInterface({ input: process.stdin, terminal: false });
  for await (const line of lines) {
    if (!line.trim()) continue;
    let msg;
    try {
      msg = JSON.parse(line);
    } catch (e) {
      reply({ ok: false, code: 'failed', error: `runner: bad command line: ${e.message}` });
      continue;
    }
    try {
      reply(await handle(state, msg));
    } catch (e) {
      reply(failure(e));
    }
    if (msg.cmd === 'quit') break;
  }
  // stdin closed or quit: release the engine (a browser must not outlive us).
  if (state.model) await state.model.close().catch(() => {});
  await state.backend.close().catch(() => {});
  process.exit(0);
}

main().catch((e) => {
  reply(failure(e));
  process.exit(1);
});

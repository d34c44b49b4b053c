// float16 tensors on the GPU (the adapter's `shader-f16`): stored as f16, computed in f32.
// The kernels write their bodies for f32 buffers; here a body is adapted to the bindings
// that hold f16: each read `inK[...]` of one becomes `f32(inK[...])` and each write
// `out[...] = v;` becomes `out[...] = f16(v);`, so every kernel keeps its f32 arithmetic
// and its order (accumulators, exp, the math.js helpers) and rounds once per stored value,
// as the wasm kernels compute float16 nodes in float32.

// The index just past the bracket closing the one at `open`.
function closing(s, open) {
  let depth = 0;
  for (let k = open; k < s.length; k++) {
    if (s[k] === '[') depth++;
    else if (s[k] === ']' && --depth === 0) return k + 1;
  }
  throw new Error(`unbalanced WGSL subscript: ${s.slice(open, open + 40)}`);
}

// `body` with the reads of the inputs in `f16Inputs` (binding numbers) widened to f32, and
// with `f16Out` its writes to `out` narrowed to f16.
export function adaptBody(body, f16Inputs, f16Out) {
  let s = body;
  for (const k of f16Inputs) {
    const name = new RegExp(`\\bin${k}\\[`, 'g');
    let m, rewritten = '', at = 0;
    while ((m = name.exec(s))) {
      const end = closing(s, m.index + m[0].length - 1);
      rewritten += `${s.slice(at, m.index)}f32(${s.slice(m.index, end)})`;
      at = name.lastIndex = end;
    }
    s = rewritten + s.slice(at);
  }
  if (!f16Out) return s;
  // Writes are whole statements `out[index] = value;` (values hold no `;`).
  const write = /\bout\[/g;
  let m, rewritten = '', at = 0;
  while ((m = write.exec(s))) {
    const end = closing(s, m.index + 3);
    const assign = /^\s*=\s*/.exec(s.slice(end));
    if (!assign) throw new Error(`a WGSL read of out: ${s.slice(m.index, end + 20)}`);
    const from = end + assign[0].length, semi = s.indexOf(';', from);
    rewritten += `${s.slice(at, from)}f16(${s.slice(from, semi)})`;
    at = write.lastIndex = semi;
  }
  return rewritten + s.slice(at);
}

// Small WGSL source builders shared by the kernels. Shapes are baked into the source as
// constants: a node's shapes are fixed for a run and compiled pipelines are cached by source.

// WebGPU guarantees 8 storage buffers per shader stage: the output and up to 7 inputs.
export const MAX_INPUTS = 7;

export const numel = (dims) => dims.reduce((a, b) => a * b, 1);

export function strides(dims) {
  const s = new Array(dims.length).fill(1);
  for (let d = dims.length - 2; d >= 0; d--) s[d] = s[d + 1] * dims[d + 1];
  return s;
}

// A float32 value as a WGSL literal (the shortest decimal that reads back to the same f32).
export function f32(x) {
  const v = Math.fround(x);
  if (!Number.isFinite(v)) throw new Error(`no WGSL literal for ${v}`);
  const s = String(v);
  return `f32(${/[.e]/.test(s) ? s : `${s}.0`})`;
}

// Statements that split the flat index `idx` into coordinates `c0`.. of `dims`.
export function coords(dims, idx = 'i', prefix = 'c') {
  if (!dims.length) return '';
  const lines = [`  var r_${prefix} = ${idx};`];
  for (let d = dims.length - 1; d >= 0; d--)
    lines.push(`  let ${prefix}${d} = r_${prefix} % ${dims[d]}u; r_${prefix} = r_${prefix} / ${dims[d]}u;`);
  return lines.join('\n');
}

// The flat index into a tensor of `dims` broadcast (numpy rules) to `outDims`, from the
// output coordinates `c0`.. that coords() defined.
export function broadcastIndex(inDims, outDims, prefix = 'c') {
  const s = strides(inDims);
  const shift = outDims.length - inDims.length;
  const terms = inDims.map((d, k) => (d === 1 ? null : `${prefix}${k + shift} * ${s[k]}u`)).filter(Boolean);
  return terms.length ? terms.join(' + ') : '0u';
}

// The broadcast shape of several shapes, or null when they do not broadcast.
export function broadcastShape(shapes) {
  const rank = Math.max(...shapes.map((s) => s.length));
  const out = [];
  for (let k = 0; k < rank; k++) {
    let d = 1;
    for (const s of shapes) {
      const v = s[k - rank + s.length] ?? 1;
      if (v === 1) continue;
      if (d !== 1 && d !== v) return null;
      d = v;
    }
    out.push(d);
  }
  return out;
}

// A node attribute parsed from the plan's JSON ("inf" / "-inf" / "nan" for non-finite floats).
export function attrNumber(v) {
  if (v === 'inf') return Infinity;
  if (v === '-inf') return -Infinity;
  if (v === 'nan') return NaN;
  return v;
}

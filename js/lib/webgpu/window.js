// Sliding-window geometry shared by Conv and the pools: 1-D and 2-D windows over NC[H]W,
// with auto_pad, pads, strides, dilations and ceil_mode as ONNX defines them.

// { spatial: [H, W], kernel, strides, dilations, padBegin, padEnd, out: [OH, OW] } with 1-D
// windows as H = 1; null when the attributes do not fit the input.
export function windowGeometry(attrs, inDims, kernelShape, ceilMode = false) {
  const rank = inDims.length - 2;
  if (rank < 1 || rank > 2 || kernelShape.length !== rank) return null;
  const strides = attrs.strides || new Array(rank).fill(1);
  const dilations = attrs.dilations || new Array(rank).fill(1);
  const pads = attrs.pads || new Array(2 * rank).fill(0);
  const autoPad = attrs.auto_pad || 'NOTSET';
  const spatial = inDims.slice(2);
  const padBegin = [], padEnd = [], out = [];
  for (let d = 0; d < rank; d++) {
    const [n, k, s, dl] = [spatial[d], kernelShape[d], strides[d], dilations[d]];
    const span = (k - 1) * dl + 1;
    if (autoPad === 'SAME_UPPER' || autoPad === 'SAME_LOWER') {
      const o = Math.ceil(n / s);
      const total = Math.max(0, (o - 1) * s + span - n);
      padBegin.push(autoPad === 'SAME_UPPER' ? Math.floor(total / 2) : Math.ceil(total / 2));
      padEnd.push(total - padBegin[d]);
      out.push(o);
    } else if (autoPad === 'VALID') {
      padBegin.push(0);
      padEnd.push(0);
      out.push(Math.floor((n - span) / s) + 1);
    } else if (autoPad === 'NOTSET') {
      const [pb, pe] = [pads[d], pads[d + rank]];
      const avail = n + pb + pe - span;
      let o = (ceilMode ? Math.ceil(avail / s) : Math.floor(avail / s)) + 1;
      if (ceilMode && (o - 1) * s >= n + pb) o--;  // the last window must start inside
      padBegin.push(pb);
      padEnd.push(pe);
      out.push(o);
    } else {
      return null;
    }
  }
  if (out.some((o) => !(o >= 1))) return null;
  const two = (a, fill) => (rank === 1 ? [fill, a[0]] : a);
  return {
    spatial: two(spatial, 1), kernel: two(kernelShape, 1), strides: two(strides, 1),
    dilations: two(dilations, 1), padBegin: two(padBegin, 0), padEnd: two(padEnd, 0), out: two(out, 1),
    outDims: [inDims[0], null, ...out],
  };
}

// WGSL loops over the taps of window (oh, ow) of geometry g that fall inside the input,
// in row-major order: `body` runs with ih, iw (input row and column, i32) and kh, kw in
// scope; `indent` is the loops' indentation.
export function windowTaps(g, body, indent = '  ') {
  const [H, W] = g.spatial, [KH, KW] = g.kernel;
  return `${indent}for (var kh = 0u; kh < ${KH}u; kh++) {
${indent}  let ih = i32(oh * ${g.strides[0]}u + kh * ${g.dilations[0]}u) - ${g.padBegin[0]};
${indent}  if (ih < 0 || ih >= ${H}) { continue; }
${indent}  for (var kw = 0u; kw < ${KW}u; kw++) {
${indent}    let iw = i32(ow * ${g.strides[1]}u + kw * ${g.dilations[1]}u) - ${g.padBegin[1]};
${indent}    if (iw < 0 || iw >= ${W}) { continue; }
${indent}    ${body}
${indent}  }
${indent}}`;
}

// MaxPool, AveragePool (1-D and 2-D windows) and GlobalAveragePool: one invocation per
// output element, window rows then columns in order.
import { coords, numel, f32 } from './wgsl.js';
import { windowGeometry, windowTaps } from './window.js';

function geometry(node, ins) {
  const g = node.attrs.kernel_shape && windowGeometry(node.attrs, ins[0].dims, node.attrs.kernel_shape, !!node.attrs.ceil_mode);
  if (g) g.outDims[1] = ins[0].dims[1];
  return g;
}

function pool(kind) {
  return {
    check(node, ins) {
      if (node.outputs.length > 1 && node.outputs[1]) return 'Indices output';
      if (node.attrs.storage_order) return 'storage_order';
      if (kind === 'avg' && node.attrs.dilations && node.attrs.dilations.some((d) => d !== 1)) return 'dilations';
      return geometry(node, ins) ? null : 'attributes do not fit the shapes';
    },
    run(gpu, node, ins) {
      const g = geometry(node, ins);
      const [H, W] = g.spatial, [KH, KW] = g.kernel, [OH, OW] = g.out;
      const includePad = kind === 'avg' && node.attrs.count_include_pad;
      // count_include_pad divides by the window's positions inside the padded input (not
      // the ceil_mode overhang past it): from its start to min(start + K, n + pad end).
      const extent = (o, axis, K, n) => {
        const start = `(i32(${o} * ${g.strides[axis]}u) - ${g.padBegin[axis]})`;
        return `(min(${start} + ${K}, ${n + g.padEnd[axis]}) - ${start})`;
      };
      // MaxPool starts from the window's first element (WGSL has no -inf constant), then
      // keeps the larger value or a NaN.
      const init = kind === 'max' ? f32(-3.4028234663852886e38) : '0.0';
      const step = kind === 'max' ? 'if (cnt == 0u || v > acc || v != v) { acc = v; } cnt = cnt + 1u;' : 'acc = acc + v; cnt = cnt + 1u;';
      const finish = kind === 'max' ? ''
        : includePad ? `  acc = acc / f32(${extent('oh', 0, KH, H)} * ${extent('ow', 1, KW, W)});`
          : '  acc = acc / f32(cnt);';
      const body = `${coords([g.outDims[0], g.outDims[1], OH, OW])}
  let oh = c2; let ow = c3;
  let base = (c0 * ${g.outDims[1]}u + c1) * ${H * W}u;
  var acc = ${init};
  var cnt = 0u;
${windowTaps(g, `let v = in0[base + u32(ih) * ${W}u + u32(iw)]; ${step}`)}
${finish}
  out[i] = acc;`;
      return [{ dims: g.outDims, buffer: gpu.compute(body, [ins[0].buffer], numel(g.outDims)) }];
    },
  };
}

const globalAveragePool = {
  check: (node, ins) => (ins[0].dims.length >= 3 ? null : 'rank below 3'),
  run(gpu, node, ins) {
    const dims = ins[0].dims;
    const size = numel(dims.slice(2));
    const outDims = [dims[0], dims[1], ...dims.slice(2).map(() => 1)];
    const body = `  let base = i * ${size}u;
  var acc = 0.0;
  for (var k = 0u; k < ${size}u; k++) { acc = acc + in0[base + k]; }
  out[i] = acc / ${f32(size)};`;
    return [{ dims: outDims, buffer: gpu.compute(body, [ins[0].buffer], dims[0] * dims[1]) }];
  },
};

export const kernels = { MaxPool: pool('max'), AveragePool: pool('avg'), GlobalAveragePool: globalAveragePool };

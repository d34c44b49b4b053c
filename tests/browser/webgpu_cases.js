// The models of webgpu.test.js: one case per kernel family and attribute combination, each
// compared with the wasm provider. `placement` is the expected [op:ep] of the plan's nodes
// (graph passes may fuse nodes away); `tolerance` bounds |gpu - wasm| / max(1, |wasm|).

const f = (name, dims) => ({ name, type: 'float32', dims });
const out = (name) => ({ name, type: 'float32' });

// Initializer values in [-1, 1), deterministic.
function values(n, seed) {
  const v = [];
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    v.push((s / 2147483648) * 2 - 1);
  }
  return v;
}
const weight = (name, dims, seed = 3) => ({ name, type: 'float32', dims, values: values(dims.reduce((a, b) => a * b, 1), seed) });
const ints = (name, list) => ({ name, type: 'int64', dims: [list.length], values: list });

// A model of one node with inputs x (and y when yDims is given) and initializers.
function one(op, xDims, { yDims, attrs, inits = [], extra = [], opset } = {}) {
  const inputs = [f('x', xDims), ...(yDims ? [f('y', yDims)] : [])];
  return {
    model: { inputs, outputs: [out('z')], initializers: inits, opset,
      nodes: [{ op, inputs: [...inputs.map((i) => i.name), ...extra], outputs: ['z'], attrs }] },
  };
}

const gpu = (...ops) => ops.map((o) => `${o}:webgpu`);

// x [4, 6] through `rounds` of Transpose then Reshape back to [4, 6]: each Transpose a new
// buffer, each Reshape sharing its input's; outputs the first Transpose's and the last Reshape's.
export function transposeChain(rounds) {
  const nodes = [];
  for (let k = 1; k <= rounds; k++) {
    nodes.push({ op: 'Transpose', inputs: [k === 1 ? 'x' : `r${k - 1}`], outputs: [`t${k}`], attrs: { perm: [1, 0] } });
    nodes.push({ op: 'Reshape', inputs: [`t${k}`, 'shape'], outputs: [`r${k}`] });
  }
  return { inputs: [f('x', [4, 6])], outputs: [out('t1'), out(`r${rounds}`)], initializers: [ints('shape', [4, 6])], nodes };
}

export const cases = [
  ...['Add', 'Sub', 'Mul'].map((op) => ({ name: `${op} broadcast`, spec: one(op, [2, 3, 4], { yDims: [3, 1] }), placement: gpu(op) })),
  { name: 'Div broadcast both ways', spec: one('Div', [1, 3, 1], { yDims: [2, 1, 4] }), placement: gpu('Div') },
  { name: 'Relu', spec: one('Relu', [3, 50]), placement: gpu('Relu') },
  { name: 'Pow broadcast (negative bases: NaN or signed)', spec: one('Pow', [2, 3, 4], { yDims: [3, 1] }), placement: gpu('Pow'), tolerance: 1e-6 },
  ...[2, 3, -1, 0.5].map((e) => ({ name: `Pow by ${e}`, spec: one('Pow', [3, 50], { extra: ['e'], inits: [{ name: 'e', type: 'float32', dims: [], values: [e] }] }), placement: gpu('Pow'), tolerance: 1e-6 })),
  { name: 'Erf', spec: one('Erf', [3, 50]), placement: gpu('Erf') },
  { name: 'Sigmoid', spec: one('Sigmoid', [3, 50]), placement: gpu('Sigmoid'), tolerance: 1e-6 },
  { name: 'Tanh', spec: one('Tanh', [3, 50]), placement: gpu('Tanh'), tolerance: 1e-6 },
  { name: 'HardSigmoid', spec: one('HardSigmoid', [3, 50], { attrs: { alpha: 0.3, beta: 0.4 } }), placement: gpu('HardSigmoid') },
  { name: 'LeakyRelu', spec: one('LeakyRelu', [3, 50]), placement: gpu('LeakyRelu') },
  { name: 'HardSwish', spec: one('HardSwish', [3, 50]), placement: gpu('HardSwish'), tolerance: 1e-6 },
  { name: 'Clip min max', spec: one('Clip', [3, 50], { extra: ['lo', 'hi'], inits: [weight('lo', [], 0), { name: 'hi', type: 'float32', dims: [], values: [0.75] }] }), placement: gpu('Clip') },
  { name: 'MatMul 2-D', spec: one('MatMul', [5, 7], { extra: ['w'], inits: [weight('w', [7, 3])] }), placement: gpu('MatMul') },
  { name: 'MatMul batched', spec: one('MatMul', [2, 3, 4, 5], { yDims: [5, 6] }), placement: gpu('MatMul') },
  { name: 'MatMul broadcast batch', spec: one('MatMul', [2, 1, 3, 4], { yDims: [3, 4, 2] }), placement: gpu('MatMul') },
  { name: 'MatMul vector', spec: one('MatMul', [4], { yDims: [2, 4, 3] }), placement: gpu('MatMul') },
  { name: 'Gemm transB alpha beta', spec: one('Gemm', [4, 6], { extra: ['w', 'c'], attrs: { transB: 1, alpha: 0.5, beta: 1.5 }, inits: [weight('w', [5, 6]), weight('c', [5], 9)] }), placement: gpu('Gemm') },
  { name: 'Gemm transA', spec: one('Gemm', [6, 4], { yDims: [6, 5], attrs: { transA: 1 } }), placement: gpu('Gemm') },
  { name: 'Conv stride pad bias', spec: one('Conv', [1, 4, 9, 9], { extra: ['w', 'b'], attrs: { strides: [2, 2], pads: [1, 1, 1, 1] }, inits: [weight('w', [6, 4, 3, 3]), weight('b', [6], 5)] }), placement: gpu('Conv') },
  { name: 'Conv grouped dilated', spec: one('Conv', [2, 4, 10, 9], { extra: ['w'], attrs: { group: 2, dilations: [2, 1], pads: [2, 0, 1, 1] }, inits: [weight('w', [6, 2, 3, 2])] }), placement: gpu('Conv') },
  { name: 'Conv depthwise SAME_UPPER', spec: one('Conv', [1, 4, 7, 8], { extra: ['w'], attrs: { group: 4, auto_pad: 'SAME_UPPER', strides: [2, 2] }, inits: [weight('w', [4, 1, 3, 3])] }), placement: gpu('Conv') },
  { name: 'Conv 1-D', spec: one('Conv', [1, 3, 12], { extra: ['w'], attrs: { pads: [1, 2] }, inits: [weight('w', [2, 3, 4])] }), placement: gpu('Conv') },
  { name: 'MaxPool pads strides', spec: one('MaxPool', [1, 3, 9, 9], { attrs: { kernel_shape: [3, 3], strides: [2, 2], pads: [1, 1, 1, 1] } }), placement: gpu('MaxPool') },
  { name: 'MaxPool ceil dilations', spec: one('MaxPool', [1, 2, 10, 10], { attrs: { kernel_shape: [2, 2], strides: [3, 3], dilations: [2, 2], ceil_mode: 1 } }), placement: gpu('MaxPool') },
  { name: 'AveragePool exclude pad', spec: one('AveragePool', [1, 3, 8, 8], { attrs: { kernel_shape: [3, 3], strides: [2, 2], pads: [1, 1, 1, 1] } }), placement: gpu('AveragePool') },
  { name: 'AveragePool include pad', spec: one('AveragePool', [1, 3, 8, 8], { attrs: { kernel_shape: [3, 3], pads: [1, 1, 1, 1], count_include_pad: 1 } }), placement: gpu('AveragePool') },
  { name: 'GlobalAveragePool', spec: one('GlobalAveragePool', [2, 5, 7, 6]), placement: gpu('GlobalAveragePool') },
  { name: 'Softmax last axis', spec: one('Softmax', [3, 4, 10]), placement: gpu('Softmax'), tolerance: 1e-6 },
  { name: 'Softmax axis 1 (opset 17)', spec: one('Softmax', [2, 5, 3], { attrs: { axis: 1 } }), placement: gpu('Softmax'), tolerance: 1e-6 },
  { name: 'Softmax opset 11 coerced', spec: one('Softmax', [2, 5, 3], { attrs: { axis: 1 }, opset: 11 }), placement: gpu('Softmax'), tolerance: 1e-6 },
  { name: 'Transpose', spec: one('Transpose', [2, 3, 4], { attrs: { perm: [2, 0, 1] } }), placement: gpu('Transpose') },
  { name: 'Squeeze axes input (opset 13)', spec: one('Squeeze', [2, 1, 3, 1], { extra: ['a'], opset: 13, inits: [ints('a', [-1, 1])] }), placement: gpu('Squeeze') },
  { name: 'Squeeze every 1 (opset 11)', spec: one('Squeeze', [1, 3, 1], { opset: 11 }), placement: gpu('Squeeze') },
  { name: 'Unsqueeze axes input (opset 13)', spec: one('Unsqueeze', [2, 3], { extra: ['a'], opset: 13, inits: [ints('a', [-1, 0])] }), placement: gpu('Unsqueeze') },
  { name: 'Unsqueeze attribute (opset 11), Identity', spec: { model: { inputs: [f('x', [3])], outputs: [out('z')], opset: 11,
    nodes: [{ op: 'Unsqueeze', inputs: ['x'], outputs: ['u'], attrs: { axes: [1] } }, { op: 'Identity', inputs: ['u'], outputs: ['z'] }] } }, placement: gpu('Unsqueeze', 'Identity') },
  { name: 'GatherElements axis 1, negative indices', spec: one('GatherElements', [3, 4], { extra: ['ix'], attrs: { axis: 1 }, inits: [{ name: 'ix', type: 'int64', dims: [2, 3], values: [0, -1, 2, 3, 1, -4] }] }), placement: gpu('GatherElements') },
  { name: 'Where of a wasm condition, broadcast', spec: { model: { inputs: [f('x', [2, 3, 4])], outputs: [out('z')], initializers: [weight('t', [4]), weight('y', [3, 1], 8)],
    nodes: [{ op: 'Greater', inputs: ['x', 't'], outputs: ['c'] }, { op: 'Where', inputs: ['c', 'x', 'y'], outputs: ['z'] }] } }, placement: ['Greater:wasm', 'Where:webgpu'] },
  // A GPU that treats subnormals as zero must still make Relu(-subnormal) 0 and keep +subnormal.
  { name: 'Relu and Clip of subnormals (copied in by Where)', spec: { model: { inputs: [f('x', [2, 3, 4])], outputs: [out('z'), out('k')],
    initializers: [weight('t', [4]), { name: 's', type: 'float32', dims: [3, 1], values: [9.17e-39, -9.17e-39, 1e-40] }, { name: 'n', type: 'float32', dims: [4], values: [-3e-39, 2e-39, -1e-45, 0] },
      { name: 'lo', type: 'float32', dims: [], values: [0] }],
    nodes: [{ op: 'Greater', inputs: ['x', 't'], outputs: ['c'] }, { op: 'Where', inputs: ['c', 'x', 's'], outputs: ['w'] }, { op: 'Where', inputs: ['c', 'n', 'w'], outputs: ['v'] },
      { op: 'Relu', inputs: ['v'], outputs: ['z'] }, { op: 'Clip', inputs: ['v', 'lo'], outputs: ['k'] }] } },
    placement: ['Greater:wasm', 'Where:webgpu', 'Where:webgpu', 'Relu:webgpu', 'Clip:webgpu'], tolerance: 0 },
  { name: 'Concat axis 1', spec: one('Concat', [2, 3, 4], { yDims: [2, 1, 4], attrs: { axis: 1 } }), placement: gpu('Concat') },
  // 16 inputs, one of them empty: three dispatches (7, 7 and 1 inputs) fill one output.
  (() => {
    const lens = [1, 2, 0, 3, 1, 1, 2, 1, 1, 2, 3, 1, 1, 2, 1, 1];
    const inputs = lens.map((n, k) => f(`x${k}`, [2, n, 3]));
    return { name: 'Concat of 16 inputs, axis -2', placement: gpu('Concat'), tolerance: 0,
      spec: { model: { inputs, outputs: [out('z')], nodes: [{ op: 'Concat', inputs: inputs.map((x) => x.name), outputs: ['z'], attrs: { axis: -2 } }] } } };
  })(),
  { name: 'LayerNormalization last axis, bias', spec: one('LayerNormalization', [3, 4, 10], { extra: ['s', 'b'], opset: 17, inits: [weight('s', [10], 4), weight('b', [10], 5)] }), placement: gpu('LayerNormalization'), tolerance: 1e-6 },
  { name: 'LayerNormalization axis 1, epsilon, no bias', spec: one('LayerNormalization', [2, 3, 5], { extra: ['s'], opset: 17, attrs: { axis: 1, epsilon: 0.01 }, inits: [weight('s', [3, 5], 4)] }), placement: gpu('LayerNormalization'), tolerance: 1e-6 },
  { name: 'LayerNormalization with Mean and InvStdDev', spec: { model: { inputs: [f('x', [2, 3, 6])], outputs: [out('z'), out('m'), out('d')], initializers: [weight('s', [6])], opset: 17,
    nodes: [{ op: 'LayerNormalization', inputs: ['x', 's'], outputs: ['z', 'm', 'd'] }] } }, placement: gpu('LayerNormalization'), tolerance: 1e-6 },
  { name: 'LayerNormalization scalar-like scale', spec: one('LayerNormalization', [2, 6], { extra: ['s'], opset: 17, inits: [weight('s', [1])] }), placement: gpu('LayerNormalization'), tolerance: 1e-6 },
  { name: 'LayerNormalization axis 1, scale and bias broadcast over the normalized shape', spec: one('LayerNormalization', [2, 3, 4, 5], { extra: ['s', 'b'], opset: 17, attrs: { axis: 1 },
    inits: [weight('s', [4, 1], 4), weight('b', [3, 1, 5], 5)] }), placement: gpu('LayerNormalization'), tolerance: 1e-6 },
  { name: 'BatchNormalization', spec: one('BatchNormalization', [2, 3, 4, 5], { extra: ['s', 'b', 'mu', 'v'], attrs: { epsilon: 0.001 },
    inits: [weight('s', [3], 1), weight('b', [3], 2), weight('mu', [3], 3), { name: 'v', type: 'float32', dims: [3], values: [0.5, 1, 2] }] }), placement: gpu('BatchNormalization') },
  { name: 'BatchNormalization + Relu (fused)', spec: { model: { inputs: [f('x', [2, 3, 4, 5])], outputs: [out('z')],
    initializers: [weight('s', [3], 1), weight('b', [3], 2), weight('mu', [3], 3), { name: 'v', type: 'float32', dims: [3], values: [0.5, 1, 2] }],
    nodes: [{ op: 'BatchNormalization', inputs: ['x', 's', 'b', 'mu', 'v'], outputs: ['n'] }, { op: 'Relu', inputs: ['n'], outputs: ['z'] }] } },
  placement: gpu('BatchNormalization') },
  { name: 'ReduceMean axes attribute, keepdims', spec: one('ReduceMean', [2, 3, 4, 5], { attrs: { axes: [1, 3] }, opset: 13 }), placement: gpu('ReduceMean'), tolerance: 1e-6 },
  { name: 'ReduceSum axes input, no keepdims', spec: one('ReduceSum', [2, 3, 4], { extra: ['a'], attrs: { keepdims: 0 }, opset: 13, inits: [ints('a', [-1, 0])] }), placement: gpu('ReduceSum') },
  { name: 'ReduceSum empty axes, noop', spec: one('ReduceSum', [2, 3], { extra: ['a'], attrs: { noop_with_empty_axes: 1 }, opset: 13, inits: [ints('a', [])] }), placement: gpu('ReduceSum') },
  { name: 'ReduceMax axes input (opset 18)', spec: one('ReduceMax', [3, 4, 5], { extra: ['a'], attrs: { keepdims: 0 }, opset: 18, inits: [ints('a', [1])] }), placement: gpu('ReduceMax') },
  { name: 'ReduceMin all axes', spec: one('ReduceMin', [3, 4, 5], { opset: 13 }), placement: gpu('ReduceMin') },
  { name: 'ReduceProd axes attribute (opset 13)', spec: one('ReduceProd', [2, 3, 4], { attrs: { axes: [1] }, opset: 13 }), placement: gpu('ReduceProd') },
  { name: 'ReduceL1 axes input (opset 18), no keepdims', spec: one('ReduceL1', [2, 3, 4], { extra: ['a'], attrs: { keepdims: 0 }, opset: 18, inits: [ints('a', [0, -1])] }), placement: gpu('ReduceL1') },
  { name: 'ReduceL2 all axes (opset 13)', spec: one('ReduceL2', [3, 4, 5], { opset: 13 }), placement: gpu('ReduceL2'), tolerance: 1e-6 },
  { name: 'ReduceL2 empty axes, noop (the input as it is)', spec: one('ReduceL2', [2, 3], { extra: ['a'], attrs: { noop_with_empty_axes: 1 }, opset: 18, inits: [ints('a', [])] }), placement: gpu('ReduceL2'), tolerance: 0 },
  { name: 'ReduceSumSquare axes input (opset 18)', spec: one('ReduceSumSquare', [3, 4, 5], { extra: ['a'], opset: 18, inits: [ints('a', [2, 0])] }), placement: gpu('ReduceSumSquare') },
  { name: 'ReduceLogSum of Exp, axes attribute (opset 13)', spec: { model: { inputs: [f('x', [2, 3, 4])], outputs: [out('z')], opset: 13,
    nodes: [{ op: 'Exp', inputs: ['x'], outputs: ['e'] }, { op: 'ReduceLogSum', inputs: ['e'], outputs: ['z'], attrs: { axes: [2, 0] } }] } }, placement: gpu('Exp', 'ReduceLogSum'), tolerance: 1e-6 },
  // Rows of -inf, of +inf and of NaN next to large values (x * 60: exp would overflow
  // without the max taken out first).
  { name: 'ReduceLogSumExp axes input (opset 18): large, infinite and NaN rows', spec: { model: { inputs: [f('x', [2, 5, 4])], outputs: [out('z')], opset: 18,
    initializers: [{ name: 'k', type: 'float32', dims: [5, 1], values: [60, -Infinity, Infinity, NaN, 1] }, ints('a', [-1])],
    nodes: [{ op: 'Mul', inputs: ['x', 'k'], outputs: ['m'] }, { op: 'ReduceLogSumExp', inputs: ['m', 'a'], outputs: ['z'] }] } }, placement: gpu('Mul', 'ReduceLogSumExp'), tolerance: 1e-6 },
  // A reduced axis of size 0: each op's identity (0, 1, -inf, +inf; Mean's 0 / 0 is NaN).
  (() => {
    const ops = ['ReduceSum', 'ReduceMean', 'ReduceProd', 'ReduceMax', 'ReduceMin', 'ReduceL1', 'ReduceL2', 'ReduceSumSquare', 'ReduceLogSum', 'ReduceLogSumExp'];
    return { name: 'Reduce* over an empty axis', tolerance: 0, placement: gpu(...ops),
      spec: { model: { inputs: [f('x', [2, 0, 3])], outputs: ops.map((op) => out(op)), opset: 18, initializers: [ints('a', [1])],
        nodes: ops.map((op) => ({ op, inputs: ['x', 'a'], outputs: [op] })) } } };
  })(),
  { name: 'Slice axes, negative step', spec: one('Slice', [4, 5, 6], { extra: ['st', 'en', 'ax', 'sp'], opset: 13, inits: [ints('st', [-1, 1]), ints('en', [-100, 5]), ints('ax', [2, 0]), ints('sp', [-2, 2])] }), placement: gpu('Slice') },
  { name: 'Slice attributes (opset 9)', spec: one('Slice', [4, 5], { attrs: { starts: [1, 0], ends: [1000, -1] }, opset: 9 }), placement: gpu('Slice') },
  { name: 'Gather axis 1, negative 2-D indices', spec: one('Gather', [3, 5, 2], { extra: ['ix'], attrs: { axis: 1 }, inits: [{ name: 'ix', type: 'int64', dims: [2, 2], values: [0, -1, 3, -5] }] }), placement: gpu('Gather') },
  { name: 'GatherND batch_dims 1, negative indices', spec: one('GatherND', [2, 3, 4], { extra: ['ix'], attrs: { batch_dims: 1 }, inits: [{ name: 'ix', type: 'int64', dims: [2, 2, 1], values: [0, -1, 2, 1] }] }), placement: gpu('GatherND') },
  { name: 'GatherND whole-element tuples', spec: one('GatherND', [3, 2, 2], { extra: ['ix'], inits: [{ name: 'ix', type: 'int64', dims: [4, 3], values: [0, 0, 0, 2, 1, 1, -1, 0, 1, 1, 1, 0] }] }), placement: gpu('GatherND') },
  // Cast: float -> integer truncates, saturates and maps NaN to 0; int64 -> int32 wraps; every
  // integer -> float rounds once (the scales give values far beyond 2^24, and beyond both ranges).
  ...[[6, [1.5, 3e9, -3e9, NaN]], [7, [1.5, 1e12, -1e19, NaN]]].map(([to, scale]) => ({
    name: `Cast float32 -> ${to === 6 ? 'int32' : 'int64'} -> float32`, tolerance: 0,
    spec: { model: { inputs: [f('x', [2, 3, 4])], outputs: [out('z')], initializers: [{ name: 's', type: 'float32', dims: [4], values: scale }],
      nodes: [{ op: 'Mul', inputs: ['x', 's'], outputs: ['m'] }, { op: 'Cast', inputs: ['m'], outputs: ['c'], attrs: { to } },
        { op: 'Cast', inputs: ['c'], outputs: ['z'], attrs: { to: 1 } }] } },
    placement: gpu('Mul', 'Cast', 'Cast') })),
  { name: 'Cast float32 -> int64 -> int32 (wraps) -> float32', tolerance: 0,
    spec: { model: { inputs: [f('x', [2, 3, 4])], outputs: [out('z')], initializers: [{ name: 's', type: 'float32', dims: [4], values: [1e12, -7e11, 3e10, 2.5] }],
      nodes: [{ op: 'Mul', inputs: ['x', 's'], outputs: ['m'] }, { op: 'Cast', inputs: ['m'], outputs: ['c'], attrs: { to: 7 } },
        { op: 'Cast', inputs: ['c'], outputs: ['d'], attrs: { to: 6 } }, { op: 'Cast', inputs: ['d'], outputs: ['z'], attrs: { to: 1 } }] } },
    placement: gpu('Mul', 'Cast', 'Cast', 'Cast') },
  { name: 'Cast of a CPU tensor stays on wasm', spec: { model: { inputs: [f('x', [3])], outputs: [out('z')],
    nodes: [{ op: 'Cast', inputs: ['x'], outputs: ['c'], attrs: { to: 6 } }, { op: 'Cast', inputs: ['c'], outputs: ['z'], attrs: { to: 1 } }] } },
    placement: ['Cast:wasm', 'Cast:wasm'] },
  { name: 'Gather axis 0 of a GPU value', spec: { model: { inputs: [f('x', [3, 2])], outputs: [out('z')], initializers: [ints('ix', [2, 0])],
    nodes: [{ op: 'Relu', inputs: ['x'], outputs: ['r'] }, { op: 'Gather', inputs: ['r', 'ix'], outputs: ['z'] }] } }, placement: ['Relu:webgpu', 'Gather:webgpu'] },
  { name: 'Split sizes input (opset 13)', spec: { model: { inputs: [f('x', [2, 7, 3])], outputs: [out('a'), out('b')], initializers: [ints('sp', [2, 5])], opset: 13,
    nodes: [{ op: 'Split', inputs: ['x', 'sp'], outputs: ['a', 'b'], attrs: { axis: 1 } }] } }, placement: gpu('Split') },
  { name: 'Split equal parts (opset 13)', spec: { model: { inputs: [f('x', [6, 2])], outputs: [out('a'), out('b'), out('c')], opset: 13,
    nodes: [{ op: 'Split', inputs: ['x'], outputs: ['a', 'b', 'c'] }] } }, placement: gpu('Split') },
  { name: 'Split attribute (opset 11)', spec: { model: { inputs: [f('x', [3, 6])], outputs: [out('a'), out('b')], opset: 11,
    nodes: [{ op: 'Split', inputs: ['x'], outputs: ['a', 'b'], attrs: { axis: -1, split: [4, 2] } }] } }, placement: gpu('Split') },
  ...[
    ['nearest scales, half_pixel', [1, 2, 3, 4], { scales: [1, 1, 2, 1.5] }],
    ['nearest sizes, asymmetric floor', [1, 2, 5, 6], { sizes: [1, 2, 3, 9] }, { coordinate_transformation_mode: 'asymmetric', nearest_mode: 'floor' }],
    ['nearest round_prefer_ceil, align_corners', [2, 7], { scales: [1, 1.7] }, { coordinate_transformation_mode: 'align_corners', nearest_mode: 'round_prefer_ceil' }],
    ['linear upsample, half_pixel', [1, 2, 4, 5], { scales: [1, 1, 2, 2] }, { mode: 'linear' }],
    ['linear downsample sizes, pytorch_half_pixel', [1, 3, 8, 7], { sizes: [1, 3, 3, 4] }, { mode: 'linear', coordinate_transformation_mode: 'pytorch_half_pixel' }],
    ['linear align_corners, 3 axes', [2, 3, 4], { sizes: [3, 5, 7] }, { mode: 'linear', coordinate_transformation_mode: 'align_corners' }],
    ['cubic upsample, half_pixel', [1, 2, 4, 5], { scales: [1, 1, 2, 1.6] }, { mode: 'cubic' }],
    ['cubic downsample sizes, A -0.5, exclude_outside, asymmetric', [1, 2, 7, 6], { sizes: [1, 2, 3, 8] }, { mode: 'cubic', cubic_coeff_a: -0.5, exclude_outside: 1, coordinate_transformation_mode: 'asymmetric' }],
    ['cubic 3 axes, align_corners', [3, 4, 5], { sizes: [2, 6, 7] }, { mode: 'cubic', coordinate_transformation_mode: 'align_corners' }],
    // Samples outside the input (roi beyond [0, 1]) are the extrapolation value.
    ['tf_crop_and_resize linear sizes, extrapolation_value', [1, 2, 4, 5], { sizes: [1, 2, 5, 7], roi: [0, 0, -0.2, 0.1, 1, 1, 1.15, 0.8] }, { mode: 'linear', coordinate_transformation_mode: 'tf_crop_and_resize', extrapolation_value: 10.5 }],
    ['tf_crop_and_resize nearest scales (length scale * roi extent)', [1, 2, 6, 6], { scales: [1, 1, 0.8, 1.5], roi: [0, 0, 0.1, -0.3, 1, 1, 0.9, 0.8] }, { coordinate_transformation_mode: 'tf_crop_and_resize', nearest_mode: 'ceil' }],
    ['tf_crop_and_resize cubic, extrapolation -inf', [2, 6, 5], { sizes: [2, 4, 9], roi: [0, 0.3, -0.5, 1, 0.7, 1.2] }, { mode: 'cubic', coordinate_transformation_mode: 'tf_crop_and_resize', extrapolation_value: -Infinity }],
    ['tf_crop_and_resize of every axis, default roi', [3, 4], { scales: [1.5, 0.5] }, { mode: 'linear', coordinate_transformation_mode: 'tf_crop_and_resize' }],
  ].map(([what, dims, { scales, sizes, roi = [] }, attrs, ep = 'webgpu']) => ({
    name: `Resize ${what}`, placement: [`Resize:${ep}`], tolerance: 1e-6,
    spec: one('Resize', dims, { opset: 13, attrs, extra: ['roi', scales ? 'sc' : '', ...(sizes ? ['sz'] : [])],
      inits: [{ name: 'roi', type: 'float32', dims: [roi.length], values: roi }, ...(scales ? [{ name: 'sc', type: 'float32', dims: [scales.length], values: scales }] : []), ...(sizes ? [ints('sz', sizes)] : [])] }),
  })),
  { name: 'Resize opset 10 (asymmetric, nearest)', spec: one('Resize', [1, 1, 3, 3], { opset: 10, extra: ['sc'], inits: [{ name: 'sc', type: 'float32', dims: [4], values: [1, 1, 2.5, 0.7] }] }), placement: gpu('Resize') },
  { name: 'ConvTranspose stride pads bias', spec: one('ConvTranspose', [1, 4, 5, 5], { extra: ['w', 'b'], attrs: { strides: [2, 2], pads: [1, 1, 0, 1] }, inits: [weight('w', [4, 3, 3, 3]), weight('b', [3], 5)] }), placement: gpu('ConvTranspose') },
  { name: 'ConvTranspose grouped dilated output_padding', spec: one('ConvTranspose', [2, 4, 4, 3], { extra: ['w'], attrs: { group: 2, dilations: [2, 1], strides: [3, 2], output_padding: [1, 1] }, inits: [weight('w', [4, 3, 2, 3])] }), placement: gpu('ConvTranspose') },
  { name: 'ConvTranspose output_shape', spec: one('ConvTranspose', [1, 2, 3, 3], { extra: ['w'], attrs: { strides: [2, 2], output_shape: [8, 7] }, inits: [weight('w', [2, 2, 3, 3])] }), placement: gpu('ConvTranspose') },
  { name: 'ConvTranspose 1-D', spec: one('ConvTranspose', [1, 2, 5], { extra: ['w'], inits: [weight('w', [2, 2, 3])] }), placement: gpu('ConvTranspose'), tolerance: 1e-6 },
  { name: 'ConvTranspose 1-D grouped, strides, pads, dilations, output_padding, bias', spec: one('ConvTranspose', [2, 4, 6], { extra: ['w', 'b'],
    attrs: { group: 2, strides: [3], pads: [1, 2], dilations: [2], output_padding: [1] }, inits: [weight('w', [4, 3, 3]), weight('b', [6], 5)] }), placement: gpu('ConvTranspose'), tolerance: 1e-6 },
  { name: 'ConvTranspose 1-D SAME_LOWER', spec: one('ConvTranspose', [1, 3, 7], { extra: ['w'], attrs: { auto_pad: 'SAME_LOWER', strides: [2] }, inits: [weight('w', [3, 2, 4])] }), placement: gpu('ConvTranspose'), tolerance: 1e-6 },
  { name: 'ConvTranspose 3-D falls back', spec: one('ConvTranspose', [1, 2, 3, 3, 3], { extra: ['w'], inits: [weight('w', [2, 2, 2, 2, 2])] }), placement: ['ConvTranspose:wasm'] },
  {
    name: 'Reshape and Flatten keep the buffer',
    spec: { model: { inputs: [f('x', [2, 3, 4])], outputs: [out('z')], initializers: [ints('s', [0, -1, 2])],
      nodes: [{ op: 'Reshape', inputs: ['x', 's'], outputs: ['r'] }, { op: 'Relu', inputs: ['r'], outputs: ['q'] }, { op: 'Flatten', inputs: ['q'], outputs: ['z'], attrs: { axis: 2 } }] } },
    placement: gpu('Reshape', 'Relu', 'Flatten'),
  },
  { name: 'Transpose and Reshape chain (buffers freed after their last reader)', spec: { model: transposeChain(10) }, placement: gpu(...Array(10).fill(['Transpose', 'Reshape']).flat()), tolerance: 0 },
  {
    name: 'GPU and wasm nodes mixed, runs at once',
    spec: { concurrent: true, model: { inputs: [f('x', [1, 2, 6, 6])], outputs: [out('z')], initializers: [weight('w', [3, 2, 3, 3]), ints('s', [1, -1])],
      nodes: [
        { op: 'Conv', inputs: ['x', 'w'], outputs: ['c'], attrs: { pads: [1, 1, 1, 1] } },
        { op: 'Sin', inputs: ['c'], outputs: ['t'] },
        { op: 'MaxPool', inputs: ['t'], outputs: ['p'], attrs: { kernel_shape: [2, 2], strides: [2, 2] } },
        { op: 'Reshape', inputs: ['p', 's'], outputs: ['r'] },
        { op: 'Softmax', inputs: ['r'], outputs: ['z'] },
      ] } },
    placement: ['Conv:webgpu', 'Sin:wasm', 'MaxPool:webgpu', 'Reshape:webgpu', 'Softmax:webgpu'],
    tolerance: 1e-5,
  },
  {
    name: 'Conv with fused residual Add and Relu',
    spec: { model: { inputs: [f('x', [1, 3, 6, 6])], outputs: [out('z')], initializers: [weight('w', [3, 3, 3, 3]), weight('b', [3], 4)],
      nodes: [
        { op: 'Conv', inputs: ['x', 'w', 'b'], outputs: ['c'], attrs: { pads: [1, 1, 1, 1] } },
        { op: 'Add', inputs: ['c', 'x'], outputs: ['a'] },
        { op: 'Relu', inputs: ['a'], outputs: ['z'] },
      ] } },
    placement: gpu('Conv'),
  },
  {
    name: 'Mul by a per-channel factor fused into a 1x1 Conv with a residual Add',
    spec: { model: { inputs: [f('x', [1, 4, 5, 5]), f('s', [1, 4, 1, 1])], outputs: [out('z')], initializers: [weight('w', [4, 4, 1, 1]), weight('b', [4], 4)],
      nodes: [
        { op: 'Mul', inputs: ['x', 's'], outputs: ['m'] },
        { op: 'Conv', inputs: ['m', 'w', 'b'], outputs: ['c'] },
        { op: 'Add', inputs: ['c', 'x'], outputs: ['z'] },
      ] } },
    placement: ['ChannelScaledConv:webgpu'],
  },
  {
    name: 'BatchNormalization and Relu fused into the 1x1 Conv after them',
    spec: { model: { inputs: [f('x', [2, 3, 4, 5])], outputs: [out('z')],
      initializers: [weight('s', [3], 1), weight('b', [3], 2), weight('mu', [3], 3), { name: 'v', type: 'float32', dims: [3], values: [0.5, 1, 2] },
        weight('w', [4, 3, 1, 1], 6)],
      nodes: [
        { op: 'BatchNormalization', inputs: ['x', 's', 'b', 'mu', 'v'], outputs: ['n'], attrs: { epsilon: 0.001 } },
        { op: 'Relu', inputs: ['n'], outputs: ['r'] },
        { op: 'Conv', inputs: ['r', 'w'], outputs: ['z'] },
      ] } },
    placement: ['NormalizedConv:webgpu'],
  },
  {
    name: 'fused elementwise group',
    spec: { model: { inputs: [f('x', [2, 3, 4]), f('y', [3, 1])], outputs: [out('z')], initializers: [weight('b', [4], 6)],
      nodes: [
        { op: 'Mul', inputs: ['x', 'y'], outputs: ['m'] },
        { op: 'Add', inputs: ['m', 'b'], outputs: ['a'] },
        { op: 'Sigmoid', inputs: ['a'], outputs: ['z'] },
      ] } },
    placement: ['FusedElementwise:webgpu'],
    tolerance: 1e-6,
  },
  {
    name: 'Conv with a folded HardSwish chain',
    spec: { model: { inputs: [f('x', [1, 3, 5, 5])], outputs: [out('z')],
      initializers: [weight('w', [4, 3, 3, 3]), ...[['zero', 0], ['three', 3], ['six', 6]].map(([name, v]) => ({ name, type: 'float32', dims: [], values: [v] }))],
      nodes: [
        { op: 'Conv', inputs: ['x', 'w'], outputs: ['c'], attrs: { pads: [1, 1, 1, 1] } },
        { op: 'Add', inputs: ['c', 'three'], outputs: ['a'] },
        { op: 'Clip', inputs: ['a', 'zero', 'six'], outputs: ['b'] },
        { op: 'Mul', inputs: ['c', 'b'], outputs: ['m'] },
        { op: 'Div', inputs: ['m', 'six'], outputs: ['z'] },
      ] } },
    placement: gpu('Conv'),
    tolerance: 1e-6,
  },
  {
    name: 'fused group of 8 inputs (packed into one binding)',
    spec: { model: { inputs: [0, 1, 2, 3, 4, 5, 6, 7].map((k) => f(`x${k}`, k % 2 ? [3] : [2, 3])), outputs: [out('z')],
      nodes: [1, 2, 3, 4, 5, 6, 7].map((k) => ({ op: k % 3 ? 'Add' : 'Mul', inputs: [k === 1 ? 'x0' : `s${k - 1}`, `x${k}`], outputs: [k === 7 ? 'z' : `s${k}`] })) } },
    placement: ['FusedElementwise:webgpu'],
  },
  {
    name: 'Conv with a folded group of 6 operands',
    spec: { model: { inputs: [f('x', [1, 3, 5, 5])], outputs: [out('z')],
      initializers: [weight('w', [4, 3, 3, 3]), weight('b', [4], 2), ...[1, 2, 3, 4, 5, 6].map((k) => weight(`p${k}`, [4, 1, 1], 10 + k))],
      nodes: [
        { op: 'Conv', inputs: ['x', 'w', 'b'], outputs: ['c'], attrs: { pads: [1, 1, 1, 1] } },
        ...[1, 2, 3, 4, 5, 6].map((k) => ({ op: k % 2 ? 'Mul' : 'Add', inputs: [k === 1 ? 'c' : `a${k - 1}`, `p${k}`], outputs: [k === 6 ? 'z' : `a${k}`] })),
      ] } },
    placement: gpu('Conv'),
  },
  {
    name: 'sequence values between wasm steps',
    spec: { model: { inputs: [f('x', [2, 3])], outputs: [out('z')], initializers: [{ name: 'one', type: 'int64', dims: [], values: [1] }],
      nodes: [
        { op: 'Sigmoid', inputs: ['x'], outputs: ['s'] },
        { op: 'SequenceConstruct', inputs: ['x', 's'], outputs: ['q'] },
        { op: 'SequenceAt', inputs: ['q', 'one'], outputs: ['a'] },
        { op: 'Relu', inputs: ['a'], outputs: ['z'] },
      ] } },
    placement: ['Sigmoid:webgpu', 'SequenceConstruct:wasm', 'SequenceAt:wasm', 'Relu:webgpu'],
    tolerance: 1e-6,
  },
  {
    name: 'optional values between wasm steps',
    spec: { model: { inputs: [f('x', [2, 3])], outputs: [out('z')], opset: 18,
      nodes: [
        { op: 'Optional', inputs: ['x'], outputs: ['o'] },
        { op: 'OptionalGetElement', inputs: ['o'], outputs: ['a'] },
        { op: 'Relu', inputs: ['a'], outputs: ['z'] },
      ] } },
    placement: ['Optional:wasm', 'OptionalGetElement:wasm', 'Relu:webgpu'],
  },
  {
    name: 'MaxPool of -inf windows',
    spec: { model: { inputs: [f('x', [1, 2, 4, 4])], outputs: [out('z')], initializers: [{ name: 'ninf', type: 'float32', dims: [1], values: [-Infinity] }],
      nodes: [
        { op: 'Relu', inputs: ['x'], outputs: ['r'] },
        { op: 'Add', inputs: ['r', 'ninf'], outputs: ['n'] },
        { op: 'MaxPool', inputs: ['n'], outputs: ['z'], attrs: { kernel_shape: [2, 2], strides: [2, 2] } },
      ] } },
    placement: ['FusedElementwise:webgpu', 'MaxPool:webgpu'],
  },
];

// Binds a kernel's extra operands (fused groups, residuals), each read broadcast to the
// output: one binding each while the shader's limit allows, else all in one packed buffer.
import { MAX_INPUTS, broadcastIndex, numel } from './wgsl.js';

// tensors: [{ dims, buffer }]; inputs: the buffers bound so far (appended to); keep: the
// run's buffers. `prefix` names the output coordinates (see coords()). Returns one WGSL
// expression per tensor.
export function bindOperands(gpu, tensors, outDims, inputs, keep, prefix) {
  const at = (x) => broadcastIndex(x.dims, outDims, prefix);
  if (inputs.length + tensors.length <= MAX_INPUTS) {
    return tensors.map((x) => {
      inputs.push(x.buffer);
      return `in${inputs.length - 1}[${at(x)}]`;
    });
  }
  const { buffer, offsets } = gpu.pack(tensors.map((x) => x.buffer), tensors.map((x) => numel(x.dims)), keep);
  inputs.push(buffer);
  return tensors.map((x, k) => `in${inputs.length - 1}[${offsets[k]}u + ${at(x)}]`);
}

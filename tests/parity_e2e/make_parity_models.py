#!/usr/bin/python3
"""Writes the models that exercise the parity toolkit on large, float16 and int8 graphs.

    make_parity_models.py OUT_DIR [--size 1024] [--blocks 100]

OUT_DIR/fp16_conv.onnx   float16 convolutional net on a SIZE x SIZE image, 13 nodes per block
                         (blocks=100 at 1024: 1,300 intermediates of 2 MiB to 4 MiB each, about
                         5 GB if all were held at once); for `localize --max-memory`.
OUT_DIR/fp16_small.onnx  a short float16 net (64 x 64) whose outputs stay within a couple of
                         float16 ULP across engines; for `compare --policy fp16`.
OUT_DIR/dq_chain.onnx    DynamicQuantizeLinear -> ConvInteger / MatMulInteger, repeated: every
                         layer re-quantizes with a scale taken from its own input's range, so
                         a one-ulp change can flip quantization steps that then compound;
                         for `compare --noise-floor`.

Weights come from a fixed seed, so the files are the same on every run. The big model is
generated into the build tree, never committed.
"""
import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


class Builder:
    """Collects nodes and initializers; names every tensor and node uniquely."""

    def __init__(self, seed):
        self.nodes, self.inits, self.count = [], [], 0
        self.rng = np.random.default_rng(seed)

    def name(self, prefix):
        self.count += 1
        return f"{prefix}_{self.count}"

    def const(self, array):
        n = self.name("w")
        self.inits.append(numpy_helper.from_array(array, n))
        return n

    def op(self, op_type, inputs, n_out=1, **attrs):
        outs = [self.name(op_type.lower()) for _ in range(n_out)]
        self.nodes.append(helper.make_node(op_type, inputs, outs, name=self.name(op_type), **attrs))
        return outs[0] if n_out == 1 else outs

    def model(self, inputs, outputs, name):
        graph = helper.make_graph(self.nodes, name, inputs, outputs, self.inits)
        m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="make_parity_models")
        m.ir_version = 8
        onnx.checker.check_model(m)
        return m


def conv_block(b, x, channels, dtype):
    """13 nodes: 3x3 conv, scale and shift, swish, 1x1 conv, residual, clip, a smooth bend."""
    w3 = (b.rng.standard_normal((channels, channels, 3, 3)) * 0.25).astype(dtype)
    w1 = (b.rng.standard_normal((channels, channels, 1, 1)) * 0.5).astype(dtype)
    scale = b.const(np.array(0.9, dtype))
    shift = b.const((b.rng.standard_normal((1, channels, 1, 1)) * 0.1).astype(dtype))
    y = b.op("Conv", [x, b.const(w3), b.const(np.zeros(channels, dtype))], pads=[1, 1, 1, 1])
    y = b.op("Mul", [y, scale])
    y = b.op("Add", [y, shift])
    s = b.op("Sigmoid", [y])
    y = b.op("Mul", [y, s])
    y = b.op("Conv", [y, b.const(w1)])
    y = b.op("Add", [y, x])
    y = b.op("Clip", [y, b.const(np.array(-4, dtype)), b.const(np.array(4, dtype))])
    t = b.op("Tanh", [y])
    t = b.op("Mul", [t, b.const(np.array(0.5, dtype))])
    y = b.op("Add", [y, t])
    y = b.op("Abs", [y])
    return b.op("Sub", [y, b.const(np.array(1, dtype))])


def fp16_conv(size, blocks, channels=2):
    b = Builder(seed=7)
    y = b.op("Conv", ["image", b.const((b.rng.standard_normal((channels, 1, 3, 3)) * 0.5).astype(np.float16))],
             pads=[1, 1, 1, 1])
    for _ in range(blocks):
        y = conv_block(b, y, channels, np.float16)
    y = b.op("ReduceSum", [y, b.const(np.array([1], np.int64))], keepdims=1)
    b.nodes[-1].output[0] = "out"
    image = helper.make_tensor_value_info("image", TensorProto.FLOAT16, [1, 1, size, size])
    out = helper.make_tensor_value_info("out", TensorProto.FLOAT16, [1, 1, size, size])
    return b.model([image], [out], "fp16_conv")


# Pre-activation gain of the quantized layers: above 1, a tanh network is chaotic (a small
# change grows layer by layer), as the chained quantizers of real int8 exports tend to be.
GAIN = 2.0


def dq_layer_conv(b, x, c_in, c_out, stride=1):
    """DynamicQuantizeLinear -> ConvInteger -> float, rescaled by the two scales, then Tanh."""
    q, scale, zero = b.op("DynamicQuantizeLinear", [x], n_out=3)
    w = b.rng.integers(0, 256, (c_out, c_in, 3, 3)).astype(np.uint8)
    acc = b.op("ConvInteger", [q, b.const(w), zero, b.const(np.array(128, np.uint8))], pads=[1, 1, 1, 1],
               strides=[stride, stride])
    y = b.op("Cast", [acc], to=TensorProto.FLOAT)
    y = b.op("Mul", [y, b.op("Mul", [scale, b.const(np.array(GAIN / (74 * np.sqrt(9 * c_in)), np.float32))])])
    return b.op("Tanh", [y])


def dq_layer_matmul(b, x, k, n):
    """DynamicQuantizeLinear -> MatMulInteger -> float, rescaled, then Tanh."""
    q, scale, zero = b.op("DynamicQuantizeLinear", [x], n_out=3)
    w = b.rng.integers(0, 256, (k, n)).astype(np.uint8)
    acc = b.op("MatMulInteger", [q, b.const(w), zero, b.const(np.array(128, np.uint8))])
    y = b.op("Cast", [acc], to=TensorProto.FLOAT)
    y = b.op("Mul", [y, b.op("Mul", [scale, b.const(np.array(GAIN / (74 * np.sqrt(k)), np.float32))])])
    return b.op("Tanh", [y])


def dq_chain(conv_layers=8, matmul_layers=16, size=128, channels=8, width=64):
    b = Builder(seed=11)
    # A 2x larger input, halved by the first layer: more elements for a few-ULP change to tip.
    y = dq_layer_conv(b, "x", 1, channels, stride=2)
    for _ in range(conv_layers - 1):
        y = dq_layer_conv(b, y, channels, channels)
    y = b.op("Reshape", [y, b.const(np.array([1, channels * size * size], np.int64))])
    y = dq_layer_matmul(b, y, channels * size * size, width)
    for _ in range(matmul_layers - 1):
        y = dq_layer_matmul(b, y, width, width)
    y = b.op("Sigmoid", [b.op("Mul", [y, b.const(np.array(4.0, np.float32))])])
    b.nodes[-1].output[0] = "mask"
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 2 * size, 2 * size])
    mask = helper.make_tensor_value_info("mask", TensorProto.FLOAT, [1, width])
    return b.model([x], [mask], "dq_chain")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out_dir")
    p.add_argument("--size", type=int, default=1024, help="image side of fp16_conv.onnx")
    p.add_argument("--blocks", type=int, default=100, help="13-node blocks in fp16_conv.onnx")
    a = p.parse_args()
    os.makedirs(a.out_dir, exist_ok=True)
    onnx.save(fp16_conv(a.size, a.blocks), os.path.join(a.out_dir, "fp16_conv.onnx"))
    onnx.save(fp16_conv(64, 1), os.path.join(a.out_dir, "fp16_small.onnx"))
    onnx.save(dq_chain(), os.path.join(a.out_dir, "dq_chain.onnx"))


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Writes the models and calibration cases of quantize_options.sh into OUT_DIR.

outlier.onnx: x -> Conv -> Relu -> Conv -> y, with calibration cases (cases/NN/x.npy) that are
Gaussian with a few far outliers: entropy calibration clips x well inside its minmax range.
sensitive.onnx: three 3x3 Convs with Relus; the middle one, 'conv_b_sensitive', has one weight
2000 times larger than the rest (on an input channel that is always 0), so per-tensor int8
rounds its other weights to 0 and quantizing it alone ruins the output, while the other two
quantize well.
overflow.onnx: x in [0, 1000) (cases_overflow/): rms = Sqrt(ReduceMean(x * x)) and
probs = Softmax(x * 100) pass through values beyond float16's 65504, small = Relu(x * 0.01) does not.
Usage: make_quantize_models.py OUT_DIR (Debian's /usr/bin/python3, python3-onnx, numpy).
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def conv(name, x, y, w):
    b = np.full(w.shape[0], 0.01, np.float32)
    if name == "conv_a_dead0":
        w[0], b[0] = 0.0, -1.0  # channel 0 is always 0 after the Relu
    return helper.make_node("Conv", [x, name + "_w", name + "_b"], [y], name=name, pads=[1, 1, 1, 1]), [
        numpy_helper.from_array(w.astype(np.float32), name + "_w"), numpy_helper.from_array(b, name + "_b")]


def model(name, weights, shape):
    nodes, inits, x = [], [], "x"
    for i, (conv_name, w) in enumerate(weights):
        out = "y" if i + 1 == len(weights) else conv_name + "_out"
        node, params = conv(conv_name, x, out, w)
        nodes.append(node)
        inits += params
        if out != "y":
            nodes.append(helper.make_node("Relu", [out], [conv_name + "_relu"], name=conv_name + "_relu"))
            x = conv_name + "_relu"
    graph = helper.make_graph(nodes, name, [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, weights[-1][1].shape[0]] + shape[2:])], inits)
    m = helper.make_model(graph, producer_name="twinrt-cli-tests", opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(m)
    return m


def overflow_model():
    const = lambda name, v: numpy_helper.from_array(np.array(v, np.float32), name)
    nodes = [helper.make_node("Mul", ["x", "x"], ["sq"], name="square"),
             helper.make_node("ReduceMean", ["sq"], ["mean_sq"], name="mean", axes=[-1]),
             helper.make_node("Sqrt", ["mean_sq"], ["rms"], name="root"),
             helper.make_node("Mul", ["x", "hundred"], ["logits"], name="scale_up"),
             helper.make_node("Softmax", ["logits"], ["probs"], name="softmax", axis=-1),
             helper.make_node("Mul", ["x", "hundredth"], ["scaled"], name="scale_down"),
             helper.make_node("Relu", ["scaled"], ["small"], name="relu")]
    outs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in [("rms", [1, 1]), ("probs", [1, 64]), ("small", [1, 64])]]
    graph = helper.make_graph(nodes, "overflow", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 64])], outs,
                              [const("hundred", 100.0), const("hundredth", 0.01)])
    m = helper.make_model(graph, producer_name="twinrt-cli-tests", opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(m)
    return m


def main(out):
    rng = np.random.default_rng(10)
    shape = [1, 4, 12, 12]
    os.makedirs(out, exist_ok=True)
    w = lambda co, ci: rng.normal(0, 0.3, (co, ci, 3, 3))
    onnx.save_model(model("outlier", [("conv_a", w(8, 4)), ("conv_c", w(4, 8))], shape), os.path.join(out, "outlier.onnx"))
    spiky = w(8, 8)
    # About 2000x the others, so their int8 steps round to 0; it reads conv_a's channel 0,
    # which is always 0, so in float it changes nothing.
    spiky[0, 0, 1, 1] = 600.0
    onnx.save_model(model("sensitive", [("conv_a_dead0", w(8, 4)), ("conv_b_sensitive", spiky), ("conv_c", w(4, 8))], shape),
                    os.path.join(out, "sensitive.onnx"))
    onnx.save_model(overflow_model(), os.path.join(out, "overflow.onnx"))
    for c in range(2):
        os.makedirs(os.path.join(out, "cases_overflow", "%02d" % c), exist_ok=True)
        np.save(os.path.join(out, "cases_overflow", "%02d" % c, "x.npy"), rng.uniform(0, 1000, [1, 64]).astype(np.float32))
    for c in range(4):
        x = rng.normal(0, 1, shape).astype(np.float32)
        x.flat[rng.choice(x.size, 3, replace=False)] = [40.0, -45.0, 50.0]
        os.makedirs(os.path.join(out, "cases", "%02d" % c), exist_ok=True)
        np.save(os.path.join(out, "cases", "%02d" % c, "x.npy"), x)


if __name__ == "__main__":
    main(sys.argv[1])

#!/usr/bin/python3
"""Writes quantize_report.sh's model and cases into OUT_DIR.

classifier.onnx: x[1,3,16,16] -> Conv conv_a -> Relu -> Conv conv_b -> Relu -> Conv conv_c -> Relu
-> GlobalAveragePool -> Flatten -> Gemm fc -> logits[1,10] (class scores); cases/NN/x.npy: 4
random inputs in [0, 1).
Usage: make_quantize_report_model.py OUT_DIR (Debian's /usr/bin/python3, python3-onnx, numpy).
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def main(out):
    rng = np.random.default_rng(7)
    nodes, inits, x = [], [], "x"
    channels = 3
    for name, c in (("conv_a", 8), ("conv_b", 8), ("conv_c", 8)):
        w = rng.normal(0, 0.4, (c, channels, 3, 3)).astype(np.float32)
        b = rng.normal(0, 0.05, c).astype(np.float32)
        inits += [numpy_helper.from_array(w, name + "_w"), numpy_helper.from_array(b, name + "_b")]
        nodes.append(helper.make_node("Conv", [x, name + "_w", name + "_b"], [name + "_out"], name=name, pads=[1, 1, 1, 1]))
        nodes.append(helper.make_node("Relu", [name + "_out"], [name + "_relu"], name=name + "_relu"))
        x, channels = name + "_relu", c
    nodes += [helper.make_node("GlobalAveragePool", [x], ["pooled"], name="pool"),
              helper.make_node("Flatten", ["pooled"], ["flat"], name="flatten"),
              helper.make_node("Gemm", ["flat", "fc_w", "fc_b"], ["logits"], name="fc", transB=1)]
    inits += [numpy_helper.from_array(rng.normal(0, 1, (10, channels)).astype(np.float32), "fc_w"),
              numpy_helper.from_array(np.zeros(10, np.float32), "fc_b")]
    graph = helper.make_graph(nodes, "classifier", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
                              [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, 10])], inits)
    m = helper.make_model(graph, producer_name="twinrt-cli-tests", opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(m)
    os.makedirs(out, exist_ok=True)
    onnx.save(m, os.path.join(out, "classifier.onnx"))
    for i in range(4):
        os.makedirs(os.path.join(out, "cases", "%02d" % i), exist_ok=True)
        np.save(os.path.join(out, "cases", "%02d" % i, "x.npy"), rng.random((1, 3, 16, 16), dtype=np.float32))


if __name__ == "__main__":
    main(sys.argv[1])

#!/usr/bin/env python3
# usage: make_webgpu_engine_model.py OUT.onnx
# A model for the WebGPU engines test: a residual Conv block (runs on twinrt-web's GPU
# kernels) and an int64 Add (no GPU kernel takes int64: it falls back to wasm), so the
# engine description has a node on each side.
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper, save

rng = np.random.default_rng(13)
w = numpy_helper.from_array(rng.standard_normal((3, 3, 3, 3)).astype(np.float32), "w")
graph = helper.make_graph(
    [helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]),
     helper.make_node("Add", ["c", "x"], ["s"], name="residual"),
     helper.make_node("Relu", ["s"], ["y"], name="relu"),
     helper.make_node("Add", ["k", "k"], ["k2"], name="int_add")],
    "webgpu_engines",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8]),
     helper.make_tensor_value_info("k", TensorProto.INT64, [4])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3, 8, 8]),
     helper.make_tensor_value_info("k2", TensorProto.INT64, [4])],
    [w])
save(helper.make_model(graph, producer_name="twinrt-cli-tests", opset_imports=[helper.make_opsetid("", 14)]), sys.argv[1])

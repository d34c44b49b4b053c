#!/usr/bin/python3
"""Writes add_two.onnx (z = a + b, float32[n,3]): the join of two pipeline branches in
pipeline_test.cc. Run from this folder with Debian's /usr/bin/python3 (python3-onnx)."""
import onnx
from onnx import TensorProto, helper

graph = helper.make_graph(
    [helper.make_node("Add", ["a", "b"], ["z"], name="add")],
    "add_two",
    [helper.make_tensor_value_info("a", TensorProto.FLOAT, ["n", 3]),
     helper.make_tensor_value_info("b", TensorProto.FLOAT, ["n", 3])],
    [helper.make_tensor_value_info("z", TensorProto.FLOAT, ["n", 3])],
)
model = helper.make_model(graph, producer_name="twinrt-pipeline-tests", producer_version="1",
                          opset_imports=[helper.make_opsetid("", 14)])
onnx.checker.check_model(model)
onnx.save_model(model, "add_two.onnx")

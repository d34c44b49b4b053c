#!/usr/bin/python3
"""Writes the hostile models of the CLI's security tests (issue 14; docs/security.md).

Run from this folder with Debian's /usr/bin/python3 (python3-onnx 1.12, python3-numpy).
Most of these are models the ONNX checker would reject: that is the point.
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT


def model(nodes, inputs, outputs, initializers=(), opset=14):
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(initializers))
    m = helper.make_model(graph, producer_name="twinrt-cli-tests",
                          opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m


def tensor(name, shape):
    return helper.make_tensor_value_info(name, F, shape)


def save(m, path):
    with open(path, "wb") as f:
        f.write(m.SerializeToString())


def pool(**attrs):
    return model([helper.make_node("MaxPool", ["x"], ["y"], name="pool", kernel_shape=[2, 2], **attrs)],
                 [tensor("x", [1, 1, 4, 4])], [tensor("y", None)])


# Tensors stored inline whose external_data entries name files outside the folder: the
# loader ignores them (data_location is DEFAULT), so `inspect` must not read them either.
bias = numpy_helper.from_array(np.array([1, 2, 3], dtype=np.float32), "bias")
for key, value in [("location", "/etc/shadow"), ("location", "../../../../../../../etc/passwd")]:
    entry = bias.external_data.add()
    entry.key, entry.value = key, value
save(model([helper.make_node("Add", ["x", "bias"], ["z"], name="add")], [tensor("x", [3])], [tensor("z", [3])],
           [bias]), "inline_names_outside.onnx")

# A tensor whose external data really is outside the folder.
escape = numpy_helper.from_array(np.zeros(3, dtype=np.float32), "bias")
escape.ClearField("raw_data")
escape.data_location = TensorProto.EXTERNAL
entry = escape.external_data.add()
entry.key, entry.value = "location", "../../../../../../../etc/passwd"
save(model([helper.make_node("Add", ["x", "bias"], ["z"], name="add")], [tensor("x", [3])], [tensor("z", [3])],
           [escape]), "external_escape.onnx")

# 25 nested Ifs (then: the next If; else: x itself): run accepts it, so must inspect.
cond = numpy_helper.from_array(np.array(True), "cond")
leaf = helper.make_graph([helper.make_node("Identity", ["x"], ["y"], name="leaf")], "leaf", [], [tensor("y", [2])])
inner = leaf
for depth in range(25):
    node = helper.make_node("If", ["cond"], ["y"], name=f"if{depth}", then_branch=inner, else_branch=leaf)
    inner = helper.make_graph([node], f"b{depth + 1}", [], [tensor("y", [2])])
save(model(list(inner.node), [tensor("x", [2])], [tensor("y", [2])], [cond]), "deep_if_25.onnx")

# Strictness: a typo in an attribute name, pads as large as the kernel.
save(pool(strdes=[2, 2]), "maxpool_strdes.onnx")
save(pool(pads=[2, 2, 2, 2]), "maxpool_pads_ge_kernel.onnx")

# Names defined twice.
save(model([helper.make_node("Relu", ["x"], ["y"], name="relu")], [tensor("x", [2]), tensor("x", [2])],
           [tensor("y", [2])]), "duplicate_input.onnx")
save(model([helper.make_node("Relu", ["x"], ["y"], name="relu1"), helper.make_node("Neg", ["x"], ["y"], name="neg")],
           [tensor("x", [2])], [tensor("y", [2])]), "duplicate_output.onnx")
dup = helper.make_node("LeakyRelu", ["x"], ["y"], name="leaky", alpha=0.5)
dup.attribute.extend([helper.make_attribute("alpha", 0.1)])
save(model([dup], [tensor("x", [2])], [tensor("y", [2])]), "duplicate_attribute.onnx")
save(model([helper.make_node("Relu", ["x"], ["y"], name="relu")], [tensor("x", [2])], [tensor("y", [2])], opset=99),
     "opset_99.onnx")

# Two ModelProto.graph fields: protobuf merges them (the second Relu graph's node is appended).
relu = model([helper.make_node("Relu", ["x"], ["y"], name="relu")], [tensor("x", [2])], [tensor("y", [2])])
second = onnx.ModelProto()
second.graph.CopyFrom(helper.make_graph([helper.make_node("Neg", ["x"], ["y2"], name="neg")], "g2",
                                        [], [tensor("y2", [2])]))
with open("two_graphs.onnx", "wb") as f:
    f.write(relu.SerializeToString() + second.SerializeToString())

# Integer division by zero (ONNX Runtime: "Integer division by zero"); a_3_i32.npy feeds it.
divisor = numpy_helper.from_array(np.array([1, 0, 2], dtype=np.int32), "d")
save(model([helper.make_node("Div", ["a", "d"], ["q"], name="div")],
           [helper.make_tensor_value_info("a", TensorProto.INT32, [3])],
           [helper.make_tensor_value_info("q", TensorProto.INT32, [3])], [divisor]), "int_div_by_zero.onnx")

# A test-data folder for symbolic_add.onnx (one input) with a file for input 7.
os.makedirs("test_data_extra_input", exist_ok=True)
x = numpy_helper.from_array(np.zeros((1, 3), dtype=np.float32), "x")
for name in ["input_0.pb", "input_7.pb"]:
    with open(os.path.join("test_data_extra_input", name), "wb") as f:
        f.write(x.SerializeToString())
np.save('a_3_i32.npy', np.array([5, 6, 7], dtype=np.int32))

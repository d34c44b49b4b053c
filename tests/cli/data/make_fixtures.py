#!/usr/bin/python3
"""Writes the small models and .npy files the CLI tests use (see ../CMakeLists.txt).

Run from this folder with Debian's /usr/bin/python3 (python3-onnx 1.12, python3-numpy).
"""
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def save(model, path, **kwargs):
    onnx.checker.check_model(model)
    onnx.save_model(model, path, **kwargs)


def add_bias_model(x_shape, name):
    """z = x + bias, bias a 3-element initializer."""
    bias = numpy_helper.from_array(np.array([1, 2, 3], dtype=np.float32), "bias")
    graph = helper.make_graph(
        [helper.make_node("Add", ["x", "bias"], ["z"], name="add_bias")],
        name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, x_shape)],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, x_shape)],
        [bias],
    )
    return helper.make_model(graph, producer_name="twinrt-cli-tests", producer_version="1",
                             opset_imports=[helper.make_opsetid("", 14)])


# Symbolic batch axis: `--dim batch=N` chooses it for random inputs.
save(add_bias_model(["batch", 3], "symbolic_add"), "symbolic_add.onnx")

# The bias lives in external_add.bin, so inspect must hash that file too.
save(add_bias_model([2, 3], "external_add"), "external_add.onnx", save_as_external_data=True,
     all_tensors_to_one_file=True, location="external_add.bin", size_threshold=0)

# An operator from a domain twinrt knows nothing about.
graph = helper.make_graph(
    [helper.make_node("Frobnicate", ["x"], ["y"], name="custom", domain="com.example")],
    "custom_op",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
)
model = helper.make_model(graph, producer_name="twinrt-cli-tests",
                          opset_imports=[helper.make_opsetid("", 14), helper.make_opsetid("com.example", 1)])
onnx.save_model(model, "custom_op.onnx")  # the checker rejects unknown domains

with open("corrupt.onnx", "wb") as f:
    f.write(b"\x0a\xff\xff\xff\xff\x0f this is not an ONNX model")

# A residual block, Relu(Conv(x) + x): inspect --optimized shows it as one fused Conv.
rng = np.random.default_rng(3)
conv_w = numpy_helper.from_array(rng.uniform(-1, 1, (3, 3, 3, 3)).astype(np.float32), "w")
graph = helper.make_graph(
    [helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]),
     helper.make_node("Add", ["c", "x"], ["s"], name="add"),
     helper.make_node("Relu", ["s"], ["y"], name="relu")],
    "residual_block",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3, 8, 8])],
    [conv_w],
)
save(helper.make_model(graph, producer_name="twinrt-cli-tests", producer_version="1",
                       opset_imports=[helper.make_opsetid("", 14)]), "residual_block.onnx")

np.save("x_2x3_f32.npy", np.arange(6, dtype=np.float32).reshape(2, 3))
np.save("x_2x3_i64.npy", np.arange(6, dtype=np.int64).reshape(2, 3))
np.save("x_5_f32.npy", np.arange(5, dtype=np.float32))
with open("x_truncated.npy", "wb") as f:
    f.write(open("x_2x3_f32.npy", "rb").read()[:-4])

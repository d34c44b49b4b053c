"""Shared fixtures of the Python package's tests: small ONNX models written with the onnx
package (python3-onnx), the CLI, and whether ONNX Runtime (npm onnxruntime-node) runs."""

import os

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import twinrt


@pytest.fixture(scope="session")
def work_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("twinrt-python")


def write_mlp(path, batch="batch"):
    """y = relu(x @ w + b) with x: float[batch, 4] (a named dynamic dim), plus metadata."""
    rng = np.random.default_rng(7)
    w = numpy_helper.from_array(rng.standard_normal((4, 3)).astype(np.float32), "w")
    b = numpy_helper.from_array(rng.standard_normal(3).astype(np.float32), "b")
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["xw"], name="matmul"),
         helper.make_node("Add", ["xw", "b"], ["xwb"], name="add"),
         helper.make_node("Relu", ["xwb"], ["y"], name="relu")],
        "mlp", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [batch, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [batch, 3])], [w, b], doc_string="a tiny MLP")
    model = helper.make_model(graph, producer_name="twinrt-tests", producer_version="1",
                              opset_imports=[helper.make_opsetid("", 17)])
    model.model_version = 3
    model.doc_string = "tiny model for the Python tests"
    helper.set_model_props(model, {"author": "tests", "labels": "a,b,c"})
    onnx.save(model, path)
    return str(path)


@pytest.fixture(scope="session")
def mlp_path(work_dir):
    return write_mlp(work_dir / "mlp.onnx")


@pytest.fixture(scope="session")
def twinrt_bin():
    path = os.environ.get("TWINRT_BIN")
    if not path or not os.path.exists(path):
        pytest.skip("TWINRT_BIN (the CLI) is not set; ctest sets it")
    return path


def ort_available():
    try:
        twinrt._twinrt.Engine("ort")
        return True
    except twinrt.EngineUnavailable:
        return False


@pytest.fixture(scope="session")
def ort():
    if not ort_available():
        pytest.skip("ONNX Runtime (npm onnxruntime-node in tools/) is not installed")
    return True

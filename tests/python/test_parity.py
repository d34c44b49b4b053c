"""twinrt.compare / twinrt.localize: the CLI's compare and localize, returning reports."""

import json

import numpy as np
import onnx
import pytest
from onnx import numpy_helper

import twinrt
from conftest import write_mlp


@pytest.fixture(scope="module")
def scaled_mlp(work_dir, mlp_path):
    """The MLP with its bias scaled by 1.05: a variant that must fail compare."""
    model = onnx.load(mlp_path)
    b = next(t for t in model.graph.initializer if t.name == "b")
    b.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(b) * np.float32(1.05), "b"))
    path = str(work_dir / "mlp_scaled.onnx")
    onnx.save(model, path)
    return path


def test_compare_engines_passes_with_metrics(mlp_path, work_dir):
    report = twinrt.compare(mlp_path, engines=["twinrt", "twinrt-ref"], dims={"batch": 8}, seed=3)
    assert report.passed and report.verdict == "pass"
    (out,) = report.outputs
    assert (out["output"], out["engine"], out["policy"]) == ("y", "twinrt-ref", "fp32")
    m = report.metrics("y")
    assert m["count"] == 8 * 3 and m["shape"] == [8, 3]
    assert m["max_abs"] < 1e-5
    as_dict = json.loads(report.to_json())
    assert as_dict["command"] == "compare" and as_dict["engines"][0]["name"] == "twinrt"
    html = report.to_html(str(work_dir / "compare.html"))
    assert "<html" in open(html).read().lower()
    assert "twinrt-ref" in str(report)


def test_compare_two_models_fails_and_names_the_output(mlp_path, scaled_mlp):
    x = np.abs(np.random.default_rng(0).standard_normal((4, 4))).astype(np.float32)
    report = twinrt.compare(mlp_path, scaled_mlp, inputs={"x": x})
    assert not report.passed
    assert report.outputs[0]["output"] == "y" and not report.outputs[0]["verdict"]["passed"]
    assert report.metrics("y")["max_abs"] > 1e-3


def test_compare_inputs_and_cases_from_arrays(mlp_path):
    rng = np.random.default_rng(1)
    cases = [{"x": rng.standard_normal((2, 4)).astype(np.float32)} for _ in range(5)]
    report = twinrt.compare(mlp_path, engines="twinrt,twinrt-ref", cases=cases)
    assert report.passed
    assert report.to_dict()["cases"] == 5
    assert report.metrics("y")["count"] == 5 * 2 * 3


def test_compare_bad_arguments_raise_with_the_cli_message(mlp_path):
    with pytest.raises(twinrt.InvalidArgument, match="unknown engine 'nope'"):
        twinrt.compare(mlp_path, engines=["twinrt", "nope"])
    with pytest.raises(twinrt.InvalidArgument, match="--policy"):
        twinrt.compare(mlp_path, engines=["twinrt", "twinrt-ref"], policy="strictest")
    with pytest.raises(twinrt.InvalidArgument, match="at least two"):
        twinrt.compare(mlp_path, engines=["twinrt"])


def test_compare_against_onnx_runtime(mlp_path, ort):
    report = twinrt.compare(mlp_path, engines=["ort", "twinrt"], dims={"batch": 4})
    assert report.passed, str(report)
    assert report.engines[0]["name"] == "ort" and report.engines[0]["ok"]


def test_localize_names_the_changed_node(mlp_path, scaled_mlp):
    x = np.abs(np.random.default_rng(2).standard_normal((3, 4))).astype(np.float32)
    report = twinrt.localize(mlp_path, scaled_mlp, inputs={"x": x})
    assert not report.passed
    assert "add" in report.first_divergence
    first = [layer for layer in report.layers if layer["node"] == "add"]
    assert first and first[0]["own_error"] > 0

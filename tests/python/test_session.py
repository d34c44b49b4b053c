"""InferenceSession: onnxruntime's API and behaviour, zero-copy, errors, threads."""

import subprocess
import threading

import numpy as np
import pytest

import twinrt
from conftest import write_mlp


def mlp_reference(path, x):
    import onnx
    from onnx import numpy_helper
    init = {t.name: numpy_helper.to_array(t) for t in onnx.load(path).graph.initializer}
    return np.maximum(x.astype(np.float64) @ init["w"] + init["b"], 0)


def test_inputs_outputs_and_metadata(mlp_path):
    sess = twinrt.InferenceSession(mlp_path)
    (inp,), (out,) = sess.get_inputs(), sess.get_outputs()
    assert (inp.name, inp.type, inp.shape) == ("x", "tensor(float)", ["batch", 4])
    assert (out.name, out.type, out.shape) == ("y", "tensor(float)", ["batch", 3])
    meta = sess.get_modelmeta()
    assert meta.producer_name == "twinrt-tests"
    assert meta.graph_name == "mlp"
    assert meta.version == 3
    assert meta.description == "tiny model for the Python tests"
    assert meta.custom_metadata_map == {"author": "tests", "labels": "a,b,c"}
    assert sess.get_providers() == ["CPUExecutionProvider"]
    assert twinrt.get_available_providers() == ["CPUExecutionProvider"]


def test_run_matches_float64_reference(mlp_path):
    sess = twinrt.InferenceSession(mlp_path)
    x = np.random.default_rng(0).standard_normal((5, 4)).astype(np.float32)
    (y,) = sess.run(None, {"x": x})
    assert y.dtype == np.float32 and y.shape == (5, 3)
    np.testing.assert_allclose(y, mlp_reference(mlp_path, x), rtol=1e-5, atol=1e-6)
    assert sess.run(["y"], {"x": x})[0].tobytes() == y.tobytes()


def test_outputs_are_writable_and_independent(mlp_path):
    sess = twinrt.InferenceSession(mlp_path)
    x = np.ones((2, 4), np.float32)
    (y1,) = sess.run(None, {"x": x})
    expected = y1.copy()
    assert y1.flags.writeable and y1.flags.c_contiguous
    y1[:] = -7
    (y2,) = sess.run(None, {"x": x})
    assert np.array_equal(y2, expected)
    assert not np.shares_memory(y1, y2)


def test_output_takes_twinrt_buffer_without_copy(mlp_path):
    # The output array's memory is twinrt's buffer (an array owned by a capsule), not a copy
    # numpy allocated: its base is not an ndarray.
    sess = twinrt.InferenceSession(mlp_path)
    (y,) = sess.run(None, {"x": np.ones((3, 4), np.float32)})
    assert y.base is not None and not isinstance(y.base, np.ndarray)


def test_identity_output_is_a_copy_not_the_input(work_dir):
    from onnx import TensorProto, helper, save
    graph = helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], "id",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])])
    path = str(work_dir / "identity.onnx")
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    x = np.array([1, 2], np.float32)
    (y,) = twinrt.InferenceSession(path).run(None, {"x": x})
    y[0] = 5
    assert x[0] == 1


def test_non_contiguous_and_big_endian_inputs(mlp_path):
    sess = twinrt.InferenceSession(mlp_path)
    base = np.random.default_rng(1).standard_normal((4, 8)).astype(np.float32)
    strided = base[:, ::2]
    swapped = strided.astype(">f4")
    expected = sess.run(None, {"x": np.ascontiguousarray(strided)})[0]
    assert np.array_equal(sess.run(None, {"x": strided})[0], expected)
    assert np.array_equal(sess.run(None, {"x": swapped})[0], expected)
    assert np.array_equal(sess.run(None, {"x": strided.tolist()})[0], expected)


def test_bytes_and_pathlike(mlp_path):
    from pathlib import Path
    x = np.ones((1, 4), np.float32)
    a = twinrt.InferenceSession(Path(mlp_path)).run(None, {"x": x})[0]
    b = twinrt.InferenceSession(Path(mlp_path).read_bytes()).run(None, {"x": x})[0]
    assert a.tobytes() == b.tobytes()


def test_errors_carry_twinrt_messages(mlp_path, work_dir):
    sess = twinrt.InferenceSession(mlp_path)
    with pytest.raises(twinrt.InvalidArgument, match="x") as e:
        sess.run(None, {"x": np.ones((2, 4), np.float64)})
    assert isinstance(e.value, ValueError)
    with pytest.raises(twinrt.InvalidArgument, match="x"):
        sess.run(None, {"x": np.ones((2, 5), np.float32)})
    with pytest.raises(twinrt.TwinrtError, match="x"):
        sess.run(None, {})
    with pytest.raises(twinrt.InvalidArgument, match="'nope'"):
        sess.run(["nope"], {"x": np.ones((2, 4), np.float32)})
    with pytest.raises(twinrt.IoError, match="missing.onnx"):
        twinrt.InferenceSession(str(work_dir / "missing.onnx"))
    with pytest.raises(twinrt.InvalidModel):
        twinrt.InferenceSession(b"\x08\x07\x12\xff\xff\xff")
    with pytest.raises(twinrt.InvalidArgument, match="mode"):
        twinrt.InferenceSession(mlp_path, mode="fastest")
    with pytest.raises(AttributeError):
        twinrt.SessionOptions().intra_op_threads = 2  # onnxruntime has no such attribute either


def test_unknown_provider_warns_and_runs_on_cpu(mlp_path):
    with pytest.warns(UserWarning, match="CUDAExecutionProvider"):
        sess = twinrt.InferenceSession(mlp_path, providers=["CUDAExecutionProvider", "CPUExecutionProvider"])
    assert sess.get_providers() == ["CPUExecutionProvider"]


def test_session_options_reach_the_session(mlp_path):
    opts = twinrt.SessionOptions()
    opts.intra_op_num_threads = 2
    opts.graph_optimization_level = twinrt.GraphOptimizationLevel.ORT_DISABLE_ALL
    opts.mode = "reference"
    sess = twinrt.InferenceSession(mlp_path, sess_options=opts)
    assert (sess._session.threads, sess._session.optimization, sess.mode) == (2, "none", "reference")
    assert twinrt.InferenceSession(mlp_path, opts, mode="exact", threads=1).mode == "exact"


def test_gil_is_released_while_running(work_dir):
    # A model slow enough to measure (a chain of large MatMuls): while one thread runs it,
    # another Python thread keeps counting; with the GIL held it would not advance.
    from onnx import TensorProto, helper, numpy_helper, save
    n = 384
    w = numpy_helper.from_array(np.eye(n, dtype=np.float32), "w")
    nodes = [helper.make_node("MatMul", ["x" if i == 0 else f"h{i}", "w"], [f"h{i + 1}" if i < 39 else "y"])
             for i in range(40)]
    graph = helper.make_graph(nodes, "slow", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [n, n])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [n, n])], [w])
    path = str(work_dir / "slow.onnx")
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    sess = twinrt.InferenceSession(path, mode="reference")
    x = np.ones((n, n), np.float32)
    done = threading.Event()
    ticks = []

    def count():
        while not done.is_set():
            ticks.append(1)

    t = threading.Thread(target=count)
    t.start()
    before = len(ticks)
    sess.run(None, {"x": x})
    during = len(ticks) - before
    done.set()
    t.join()
    assert during > 1000, f"the counting thread advanced only {during} times while the session ran"


def test_reference_mode_matches_cli_bit_for_bit(mlp_path, twinrt_bin, work_dir):
    x = np.random.default_rng(3).standard_normal((6, 4)).astype(np.float32)
    np.save(work_dir / "x.npy", x)
    out = work_dir / "cli_out"
    subprocess.run([twinrt_bin, "run", mlp_path, "--input", f"x={work_dir / 'x.npy'}", "--dim", "batch=6",
                    "--mode", "reference", "--out", str(out)], check=True, capture_output=True)
    cli = np.load(out / "output_0.npy")
    (py,) = twinrt.InferenceSession(mlp_path, mode="reference").run(None, {"x": x})
    assert cli.dtype == py.dtype and cli.shape == py.shape
    assert cli.tobytes() == py.tobytes()


def test_concurrent_runs_from_threads(mlp_path):
    sess = twinrt.InferenceSession(mlp_path)
    inputs = [np.full((2, 4), i, np.float32) for i in range(8)]
    expected = [sess.run(None, {"x": x})[0] for x in inputs]
    results = [None] * len(inputs)

    def work(i):
        results[i] = sess.run(None, {"x": inputs[i]})[0]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(inputs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for got, want in zip(results, expected):
        assert np.array_equal(got, want)


def test_strings_and_int_inputs(work_dir):
    from onnx import TensorProto, helper, save
    graph = helper.make_graph([helper.make_node("Identity", ["s"], ["t"]), helper.make_node("Neg", ["i"], ["j"])],
                              "types", [helper.make_tensor_value_info("s", TensorProto.STRING, [2]),
                                        helper.make_tensor_value_info("i", TensorProto.INT64, [3])],
                              [helper.make_tensor_value_info("t", TensorProto.STRING, [2]),
                               helper.make_tensor_value_info("j", TensorProto.INT64, [3])])
    path = str(work_dir / "types.onnx")
    save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
    sess = twinrt.InferenceSession(path)
    assert [i.type for i in sess.get_inputs()] == ["tensor(string)", "tensor(int64)"]
    t, j = sess.run(None, {"s": np.array(["héllo", "w"]), "i": np.array([1, -2, 3])})
    assert t.tolist() == ["héllo", "w"]
    assert j.tolist() == [-1, 2, -3] and j.dtype == np.int64


def test_onnxruntime_script_runs_unchanged_and_matches_onnx_runtime(work_dir, ort):
    import torch
    import torchvision
    import ort_style_script
    path = str(work_dir / "mobilenet_v3.onnx")
    torch.manual_seed(0)
    torch.onnx.export(torchvision.models.mobilenet_v3_small(weights=None).eval(), torch.randn(1, 3, 96, 96), path,
                      input_names=["images"], output_names=["logits"], dynamic_axes={"images": {0: "batch"}},
                      opset_version=17)
    feed, outputs = ort_style_script.main(path)
    onnx_runtime = twinrt._twinrt.Engine("ort")
    onnx_runtime.load(path)
    expected = onnx_runtime.run(feed)
    got, want = outputs["logits"], expected["logits"]
    assert got.shape == want.shape == (1, 1000)
    # float32 noise: the README's bound for real models against ONNX Runtime.
    assert np.max(np.abs(got - want)) <= 1e-4 * max(1.0, float(np.max(np.abs(want))))
    assert np.argmax(got) == np.argmax(want)

#!/usr/bin/python3
"""com.microsoft quantized ops: small one-node models run by twinrt and compared with ONNX
Runtime (`twinrt compare --engines twinrt,ort`), and malformed nodes that must fail with an
error naming the node.

usage: ms_ops_test.py TWINRT_BIN OUT_DIR [ONNXRUNTIME_NODE_DIR]
Without onnxruntime-node the models still run in twinrt, against numpy references.
"""
import json
import os
from fractions import Fraction
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

TWINRT, OUT = sys.argv[1], sys.argv[2]
HAVE_ORT = len(sys.argv) > 3 and os.path.isdir(sys.argv[3])
MS = "com.microsoft"
rng = np.random.default_rng(7)
failures = []

ONNX_TYPE = {np.uint8: TensorProto.UINT8, np.int8: TensorProto.INT8, np.float32: TensorProto.FLOAT}


def const(name, value):
    return numpy_helper.from_array(np.asarray(value), name)


def q_random(dtype, shape):
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max + 1, size=shape).astype(dtype)


def make_model(name, node, inputs, outputs, initializers):
    """inputs/outputs: [(name, numpy dtype, shape)]."""
    vi = lambda n, t, s: helper.make_tensor_value_info(n, ONNX_TYPE[t], s)
    graph = helper.make_graph([node], name, [vi(*i) for i in inputs], [vi(*o) for o in outputs], initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid(MS, 1)])
    model.ir_version = 8
    path = os.path.join(OUT, name + ".onnx")
    onnx.save(model, path)
    return path


def input_flags(name, feeds):
    flags = []
    for k, v in feeds.items():
        f = os.path.join(OUT, f"{name}_{k}.npy")
        np.save(f, v)
        flags += ["--input", f"{k}={f}"]
    return flags


def check_against_ort(name, path, feeds, max_steps):
    """Integer outputs: at most max_steps quantization steps apart (0: identical)."""
    report = os.path.join(OUT, name + ".json")
    cmd = [TWINRT, "compare", path, "--engines", "twinrt,ort", "--json", report] + input_flags(name, feeds)
    r = subprocess.run(cmd, capture_output=True, text=True)
    if not os.path.exists(report):
        failures.append(f"{name}: compare wrote no report (exit {r.returncode}): {r.stdout}{r.stderr}")
        return
    with open(report) as f:
        data = json.load(f)
    for out in output_metrics(data):
        worst = out["max_abs"]
        status = "ok" if worst <= max_steps else "FAIL"
        print(f"{name}: {out['name']} max |twinrt - ort| = {worst} (allowed {max_steps}), "
              f"{out['differ']} of {out['count']} differ, {status}")
        if worst > max_steps:
            failures.append(f"{name}: output {out['name']} differs from ONNX Runtime by {worst} > {max_steps}")


def output_metrics(report):
    """(name, max_abs) of every output compared in a compare --json report."""
    found = [{"name": o["output"], "max_abs": o["metrics"]["max_abs"], "differ": o["metrics"]["exact_mismatches"],
              "count": o["metrics"]["count"]} for o in report.get("outputs", [])]
    if not found:
        errors = "; ".join(e["error"] for e in report.get("engines", []) if e.get("error"))
        failures.append("compare compared no outputs: " + (errors or json.dumps(report)[:400]))
    return found


def symbolic_inputs(path, out_name):
    """A copy of the model whose graph inputs have named dims, so that any shape is fed."""
    m = onnx.load(path)
    for vi in m.graph.input:
        for i, d in enumerate(vi.type.tensor_type.shape.dim):
            d.dim_param = f"{vi.name}_{i}"
    for vi in m.graph.output:
        vi.type.tensor_type.ClearField("shape")
    out = os.path.join(OUT, out_name + ".onnx")
    onnx.save(m, out)
    return out


def run_twinrt(tag, path, feeds, flags=()):
    """twinrt's first output, or None (recorded as a failure) when the run fails."""
    got_dir = os.path.join(OUT, tag + "_twinrt" + "".join(flags).replace("-", "_"))
    r = subprocess.run([TWINRT, "run", path, "--out", got_dir, *flags] + input_flags(tag, feeds),
                       capture_output=True, text=True)
    if r.returncode != 0:
        failures.append(f"{tag}: twinrt run failed: {r.stdout}{r.stderr}")
        return None
    return np.load(os.path.join(got_dir, "output_0.npy"))


def check_binary_against_exact(tag, path, feeds):
    """QLinearAdd/Mul against the exact value of the spec's formula (rational arithmetic on
    the float32 scales), rounded half to even: twinrt must give it for every element."""
    m = onnx.load(path)
    init = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    got = run_twinrt(tag, path, feeds)
    if got is None:
        return
    sa, sb, sc = (Fraction(float(init[k])) for k in ("as", "bs", "cs"))
    za, zb, zc = (int(init[k]) if k in init else 0 for k in ("az", "bz", "cz"))
    info = np.iinfo(got.dtype)
    a, b = np.broadcast_arrays(feeds["a"].astype(int), feeds["b"].astype(int))
    wrong = 0
    for x, y, g in zip(a.ravel(), b.ravel(), got.astype(int).ravel()):
        va, vb = sa * (int(x) - za), sb * (int(y) - zb)
        v = (va + vb if m.graph.node[0].op_type == "QLinearAdd" else va * vb) / sc
        wrong += g != min(info.max, max(info.min, round(v) + zc))  # round(): half to even
    print(f"{tag}: {wrong} of {got.size} differ from the exactly rounded value {'ok' if wrong == 0 else 'FAIL'}")
    if wrong:
        failures.append(f"{tag}: {wrong} elements differ from the exactly rounded value")


def check_same_bits_everywhere(tag, path, feeds):
    """Every kernel tier this CPU has and thread count, in every mode, gives the same bytes."""
    has = lambda isa: subprocess.run([TWINRT, "run", path, "--isa", isa] + input_flags(tag, feeds),
                                     capture_output=True).returncode == 0
    runs = [("--isa", isa, "--threads", t, "--mode", mode) for isa in ("scalar", "avx2", "avx512") if has(isa)
            for t in ("1", "2") for mode in ("default", "reference")]
    outs = [run_twinrt(tag, path, feeds, flags) for flags in runs]
    same = all(o is not None and o.tobytes() == outs[0].tobytes() for o in outs)
    print(f"{tag}: {len(runs)} tier/thread/mode runs {'identical ok' if same else 'DIFFER FAIL'}")
    if not same:
        failures.append(f"{tag}: outputs depend on the tier, thread count or mode")


def check_matmul_against_numpy(tag, path, feeds):
    """MatMulIntegerToFloat computed exactly in int64 by numpy (A, B and scales from the model)."""
    m = onnx.load(path)
    init = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    b = feeds.get("b", init.get("b"))
    acc = (feeds["a"].astype(np.int64) - int(init["az"])) @ (b.astype(np.int64) - init["bz"].astype(np.int64))
    ref = acc.astype(np.float32) * (init["as"] * init["bs"]).astype(np.float32) + init["bias"]
    got = run_twinrt(tag, path, feeds)
    if got is None:
        return
    worst = float(np.abs(got - ref).max())
    print(f"{tag}: max |twinrt - exact numpy| = {worst} {'ok' if worst <= 1e-4 else 'FAIL'}")
    if worst > 1e-4:
        failures.append(f"{tag}: differs from the exact product by {worst}")


def expect_error(name, path, feeds, pattern):
    r = subprocess.run([TWINRT, "run", path] + input_flags(name, feeds), capture_output=True, text=True)
    text = r.stdout + r.stderr
    ok = r.returncode in (1, 2) and pattern in text and "node 'n'" in text
    print(f"{name}: exit {r.returncode}, {'ok' if ok else 'FAIL'}: {text.strip().splitlines()[-1] if text.strip() else ''}")
    if not ok:
        failures.append(f"{name}: expected a clean error with '{pattern}' naming node 'n', got exit {r.returncode}: {text}")


# ---------------------------------------------------------------- models


def binary_case(op, dtype, a_shape, b_shape, with_zero=True):
    a, b = q_random(dtype, a_shape), q_random(dtype, b_shape)
    inits = [const("as", np.float32(0.05)), const("bs", np.float32(0.02)), const("cs", np.float32(0.07))]
    # Without C_zero_point (0). ONNX Runtime 1.30 rejects omitted A/B zero points (a type
    # inference error) though the spec makes them optional, so those stay.
    mid = 0 if dtype == np.int8 else 128
    zeros = (("az", mid + 3), ("bz", mid - 5), ("cz", mid + 1)) if with_zero else (("az", mid), ("bz", mid))
    inits += [const(n, np.array(v, dtype=dtype)) for n, v in zeros]
    names = ["a", "as", "az", "b", "bs", "bz", "cs", "cz"][:6 + len(zeros) - 1]
    node = helper.make_node(op, names, ["c"], name="n", domain=MS)
    out_shape = np.broadcast_shapes(a_shape, b_shape)
    tag = f"{op}_{np.dtype(dtype).name}_{'x'.join(map(str, a_shape))}_{'x'.join(map(str, b_shape))}{'' if with_zero else '_nozp'}"
    path = make_model(tag, node, [("a", dtype, a_shape), ("b", dtype, b_shape)], [("c", dtype, out_shape)], inits)
    return tag, path, {"a": a, "b": b}


def unary_case(op, dtype, attrs=None):
    x = np.arange(np.iinfo(dtype).min, np.iinfo(dtype).max + 1, dtype=np.int64).astype(dtype).reshape(4, 64)
    mid = 0 if dtype == np.int8 else 128
    inits = [const("xs", np.float32(0.04)), const("xz", np.array(mid - 10, dtype=dtype)),
             const("ys", np.float32(1 / 256 if op == "QLinearSigmoid" else 0.03)),
             const("yz", np.array(np.iinfo(dtype).min if op == "QLinearSigmoid" else mid, dtype=dtype))]
    node = helper.make_node(op, ["x", "xs", "xz", "ys", "yz"], ["y"], name="n", domain=MS, **(attrs or {}))
    tag = f"{op}_{np.dtype(dtype).name}"
    return tag, make_model(tag, node, [("x", dtype, [4, 64])], [("y", dtype, [4, 64])], inits), {"x": x}


def gap_case(dtype, shape, channels_last):
    mid = 0 if dtype == np.int8 else 128
    inits = [const("xs", np.float32(0.1)), const("xz", np.array(mid + 7, dtype=dtype)),
             const("ys", np.float32(0.013)), const("yz", np.array(mid - 2, dtype=dtype))]
    node = helper.make_node("QLinearGlobalAveragePool", ["x", "xs", "xz", "ys", "yz"], ["y"], name="n", domain=MS,
                            channels_last=int(channels_last))
    out = [shape[0]] + [1] * (len(shape) - 2) + [shape[-1]] if channels_last else shape[:2] + [1] * (len(shape) - 2)
    tag = f"QLinearGlobalAveragePool_{np.dtype(dtype).name}_{'nhwc' if channels_last else 'nchw'}_{'x'.join(map(str, shape))}"
    return tag, make_model(tag, node, [("x", dtype, shape)], [("y", dtype, out)], inits), {"x": q_random(dtype, shape)}


def concat_case(dtype, axis):
    mid = 0 if dtype == np.int8 else 128
    shapes = [[2, 3, 4], [2, 5, 4], [2, 1, 4]]
    params = [(0.05, mid), (0.02, mid + 9), (0.05, mid)]  # the first and last share Y's parameters
    inits = [const("ys", np.float32(0.05)), const("yz", np.array(mid, dtype=dtype))]
    names, inputs, feeds = ["ys", "yz"], [], {}
    for i, (s, z) in enumerate(params):
        shape = list(shapes[i])
        shape[1], shape[axis] = shapes[0][1], shapes[i][1]
        inits += [const(f"s{i}", np.float32(s)), const(f"z{i}", np.array(z, dtype=dtype))]
        names += [f"x{i}", f"s{i}", f"z{i}"]
        inputs.append((f"x{i}", dtype, shape))
        feeds[f"x{i}"] = q_random(dtype, shape)
    out = np.concatenate(list(feeds.values()), axis=axis).shape
    node = helper.make_node("QLinearConcat", names, ["y"], name="n", domain=MS, axis=axis)
    tag = f"QLinearConcat_{np.dtype(dtype).name}_axis{axis}"
    return tag, make_model(tag, node, inputs, [("y", dtype, list(out))], inits), feeds


def matmul_case(op, a_type, b_type, per_column, b_constant, seven_bit_b=True):
    """MatMulIntegerToFloat (8-bit A) or DynamicQuantizeMatMul (float A): float output.
    uint8 x int8 products use 7-bit B by default (ORT's quantizer's reduce_range): ONNX
    Runtime's AVX2 u8s8 kernel sums pairs of products in saturating int16 (vpmaddubsw), so
    full-range B gives wrong sums there (see docs/quantization.md)."""
    a_shape, b_shape, n = [2, 3, 16], [16, 8], 8
    u8s8 = a_type != np.int8 and b_type == np.int8
    b = rng.integers(-64, 64, size=b_shape).astype(np.int8) if u8s8 and seven_bit_b else q_random(b_type, b_shape)
    b_mid = 0 if b_type == np.int8 else 128
    b_scale = (rng.uniform(0.01, 0.05, n) if per_column else np.array(0.03)).astype(np.float32)
    b_zero = (rng.integers(b_mid - 3, b_mid + 4, n) if per_column else np.array(b_mid + 2)).astype(b_type)
    inits = [const("bs", b_scale), const("bz", b_zero), const("bias", rng.uniform(-1, 1, n).astype(np.float32))]
    inputs, feeds = [], {}
    if b_constant:
        inits.append(const("b", b))
    else:
        inputs.append(("b", b_type, b_shape))
        feeds["b"] = b
    if op == "DynamicQuantizeMatMul":
        names = ["a", "b", "bs", "bz", "bias"]
        inputs.insert(0, ("a", np.float32, a_shape))
        feeds["a"] = rng.normal(0, 2, a_shape).astype(np.float32)
    else:
        a_mid = 0 if a_type == np.int8 else 128
        inits += [const("as", np.float32(0.02)), const("az", np.array(a_mid - 4, dtype=a_type))]
        names = ["a", "b", "as", "bs", "az", "bz", "bias"]
        inputs.insert(0, ("a", a_type, a_shape))
        feeds["a"] = q_random(a_type, a_shape)
    node = helper.make_node(op, names, ["y"], name="n", domain=MS)
    tag = (f"{op}_{np.dtype(a_type).name}_{np.dtype(b_type).name}_{'per_column' if per_column else 'per_tensor'}"
           f"_{'constant' if b_constant else 'input'}_b{'' if seven_bit_b else '_full_range'}")
    return tag, make_model(tag, node, inputs, [("y", np.float32, a_shape[:-1] + [n])], inits), feeds


def qgemm_case(a_type, b_type, trans_a, trans_b, per_column, b_constant, out_type, alpha=1.0, mkn=(5, 24, 7)):
    """QGemm with an int32 C; out_type None gives a float32 output (no y_scale)."""
    m, k, n = mkn
    a_shape = [k, m] if trans_a else [m, k]
    b_shape = [n, k] if trans_b else [k, n]
    u8s8 = a_type == np.uint8 and b_type == np.int8  # 7-bit B, as in matmul_case
    b = rng.integers(-64, 64, size=b_shape).astype(np.int8) if u8s8 else q_random(b_type, b_shape)
    a_mid, b_mid = (0 if t == np.int8 else 128 for t in (a_type, b_type))
    b_scale = (rng.uniform(0.01, 0.05, n) if per_column else np.array(0.03)).astype(np.float32)
    b_zero = (rng.integers(b_mid - 3, b_mid + 4, n) if per_column else np.array(b_mid + 2)).astype(b_type)
    inits = [const("as", np.float32(0.02)), const("az", np.array(a_mid - 4, dtype=a_type)), const("bs", b_scale),
             const("bz", b_zero), const("c", rng.integers(-2000, 2000, n).astype(np.int32))]
    names = ["a", "as", "az", "b", "bs", "bz", "c"]
    inputs, feeds = [("a", a_type, a_shape)], {"a": q_random(a_type, a_shape)}
    if b_constant:
        inits.append(const("b", b))
    else:
        inputs.append(("b", b_type, b_shape))
        feeds["b"] = b
    if out_type is not None:
        inits += [const("ys", np.float32(0.4)), const("yz", np.array(0 if out_type == np.int8 else 120, dtype=out_type))]
        names += ["ys", "yz"]
    node = helper.make_node("QGemm", names, ["y"], name="n", domain=MS, transA=int(trans_a), transB=int(trans_b),
                            alpha=alpha)
    tag = (f"QGemm_{np.dtype(a_type).name}_{np.dtype(b_type).name}_ta{int(trans_a)}_tb{int(trans_b)}"
           f"_{'per_column' if per_column else 'per_tensor'}_{'constant' if b_constant else 'input'}_b"
           f"_{np.dtype(out_type).name if out_type is not None else 'float32'}_{m}x{k}x{n}")
    out = out_type if out_type is not None else np.float32
    return tag, make_model(tag, node, inputs, [("y", out, [m, n])], inits), feeds


def softmax_case(dtype, shape, axis, opset, x_scale=0.08):
    mid = 0 if dtype == np.int8 else 128
    inits = [const("xs", np.float32(x_scale)), const("xz", np.array(mid + 5, dtype=dtype)),
             const("ys", np.float32(1 / 256)), const("yz", np.array(np.iinfo(dtype).min, dtype=dtype))]
    node = helper.make_node("QLinearSoftmax", ["x", "xs", "xz", "ys", "yz"], ["y"], name="n", domain=MS, axis=axis,
                            opset=opset)
    tag = f"QLinearSoftmax_{np.dtype(dtype).name}_{'x'.join(map(str, shape))}_axis{axis}_opset{opset}_xs{x_scale}"
    return tag, make_model(tag, node, [("x", dtype, shape)], [("y", dtype, shape)], inits), {"x": q_random(dtype, shape)}


def main():
    os.makedirs(OUT, exist_ok=True)
    # (case, allowed steps from ONNX Runtime): see docs/quantization.md for the 1-step cases.
    cases = []
    for dtype in (np.uint8, np.int8):
        # QLinearMul: ONNX Runtime folds the scales into one float ratio and adds the zero
        # point before rounding, which puts about 1% of these results one step away from
        # the exactly rounded value that twinrt gives (docs/quantization.md).
        for op, steps in (("QLinearAdd", 0), ("QLinearMul", 1)):
            cases.append((binary_case(op, dtype, [2, 3, 4], [2, 3, 4]), steps))
            cases.append((binary_case(op, dtype, [2, 3, 4], [4]), steps))
            cases.append((binary_case(op, dtype, [3, 1], [1, 5], with_zero=False), steps))
            cases.append((binary_case(op, dtype, [4, 64, 33], [33]), steps))  # ONNX Runtime's vector loops
        cases.append((unary_case("QLinearSigmoid", dtype), 0))
        cases.append((unary_case("QLinearLeakyRelu", dtype, {"alpha": 0.1}), 0))
        cases.append((gap_case(dtype, [2, 3, 5, 7], False), 0))
        cases.append((gap_case(dtype, [2, 5, 7, 3], True), 0))
        cases.append((gap_case(dtype, [1, 64, 14, 14], False), 0))
        cases.append((concat_case(dtype, 1), 0))
    # Float outputs: the same int32 product scaled in float32; 1e-4 absolute on values of
    # magnitude 1-10 allows for a different order of the scale multiplication and bias add.
    for a_type, b_type in ((np.uint8, np.int8), (np.uint8, np.uint8), (np.int8, np.int8)):
        for per_column in (False, True):
            cases.append((matmul_case("MatMulIntegerToFloat", a_type, b_type, per_column, True), 1e-4))
    cases.append((matmul_case("MatMulIntegerToFloat", np.uint8, np.int8, True, False), 1e-4))
    for b_type in (np.int8, np.uint8):
        cases.append((matmul_case("DynamicQuantizeMatMul", np.float32, b_type, True, True), 1e-4))
        cases.append((matmul_case("DynamicQuantizeMatMul", np.float32, b_type, False, False), 1e-4))
    cases.append((qgemm_case(np.uint8, np.int8, False, True, False, True, np.uint8), 0))
    cases.append((qgemm_case(np.uint8, np.int8, False, True, True, True, None, alpha=0.5), 1e-4))
    cases.append((qgemm_case(np.int8, np.int8, True, False, True, True, np.int8), 0))
    cases.append((qgemm_case(np.uint8, np.uint8, True, True, False, False, np.uint8), 0))
    cases.append((qgemm_case(np.int8, np.int8, False, False, False, False, None), 1e-4))
    cases.append((qgemm_case(np.uint8, np.int8, False, True, True, True, np.uint8, mkn=(67, 300, 45)), 0))
    for dtype in (np.uint8, np.int8):
        cases.append((softmax_case(dtype, [3, 10], -1, 13), 0))
        cases.append((softmax_case(dtype, [2, 4, 6], 1, 13), 0))
        cases.append((softmax_case(dtype, [2, 3, 4], 1, 12), 0))
        cases.append((softmax_case(dtype, [4, 1000], -1, 13), 0))
        for xs in (0.01, 0.03, 0.2):
            cases.append((softmax_case(dtype, [16, 24], -1, 13, xs), 0))
    for (tag, path, feeds), steps in cases:
        if tag.startswith(("QLinearAdd", "QLinearMul")):
            check_binary_against_exact(tag, path, feeds)
        if HAVE_ORT:
            check_against_ort(tag, path, feeds, steps)
        else:
            r = subprocess.run([TWINRT, "run", path] + input_flags(tag, feeds), capture_output=True, text=True)
            if r.returncode != 0:
                failures.append(f"{tag}: twinrt run failed: {r.stdout}{r.stderr}")

    # Full-range uint8 x int8: against the exact product (ONNX Runtime's AVX2 path saturates).
    check_matmul_against_numpy(*matmul_case("MatMulIntegerToFloat", np.uint8, np.int8, True, True, seven_bit_b=False))
    check_matmul_against_numpy(*matmul_case("MatMulIntegerToFloat", np.uint8, np.int8, False, False, seven_bit_b=False))

    # The GEMM-based ops go through the tier's packed tiles: the bits must not depend on it.
    for case in (qgemm_case(np.uint8, np.int8, False, True, True, True, np.uint8, mkn=(67, 300, 45)),
                 matmul_case("DynamicQuantizeMatMul", np.float32, np.int8, True, True, seven_bit_b=False)):
        check_same_bits_everywhere(*case)

    # Malformed nodes: a clear error naming the node, never a crash.
    tag, path, feeds = binary_case("QLinearAdd", np.uint8, [2, 3], [2, 3])
    m = onnx.load(path)
    for init in m.graph.initializer:
        if init.name == "bz":
            init.CopyFrom(const("bz", np.array(3, dtype=np.int8)))
    onnx.save(m, os.path.join(OUT, "bad_zero_type.onnx"))
    expect_error("bad_zero_type", os.path.join(OUT, "bad_zero_type.onnx"), feeds, "B_zero_point must have B's type uint8")

    m = onnx.load(path)
    m.graph.node[0].input[4] = ""
    onnx.save(m, os.path.join(OUT, "missing_scale.onnx"))
    expect_error("missing_scale", os.path.join(OUT, "missing_scale.onnx"), feeds, "input 4 is required")

    path = symbolic_inputs(path, "symbolic_add")
    expect_error("mismatched_shapes", path, {"a": feeds["a"], "b": q_random(np.uint8, [2, 4])}, "broadcast")

    tag, path, feeds = concat_case(np.uint8, 1)
    feeds["x1"] = q_random(np.uint8, [3, 5, 4])
    path = symbolic_inputs(path, "symbolic_concat")
    expect_error("concat_mismatched_shapes", path, feeds, "does not match")

    tag, path, feeds = matmul_case("MatMulIntegerToFloat", np.uint8, np.int8, False, True)
    m = onnx.load(path)
    for init in m.graph.initializer:
        if init.name == "bias":
            init.CopyFrom(const("bias", np.zeros(5, dtype=np.float32)))
    onnx.save(m, os.path.join(OUT, "bad_bias.onnx"))
    expect_error("bad_bias", os.path.join(OUT, "bad_bias.onnx"), feeds, "bias must be a float32 tensor of shape [8]")

    tag, path, feeds = concat_case(np.uint8, 1)
    m = onnx.load(path)
    del m.graph.node[0].attribute[:]
    onnx.save(m, os.path.join(OUT, "concat_no_axis.onnx"))
    expect_error("concat_no_axis", os.path.join(OUT, "concat_no_axis.onnx"), feeds, "needs the 'axis' attribute")

    tag, path, feeds = unary_case("QLinearSigmoid", np.uint8)
    path = symbolic_inputs(path, "sigmoid_any_x")
    m = onnx.load(path)
    m.graph.input[0].type.tensor_type.elem_type = TensorProto.FLOAT
    onnx.save(m, path)
    expect_error("float_input", path, {"x": feeds["x"].astype(np.float32)}, "X must be uint8 or int8, got float32")

    # An op of the domain that twinrt does not implement: named with its domain.
    tag, path, feeds = unary_case("QLinearSigmoid", np.uint8)
    m = onnx.load(path)
    m.graph.node[0].op_type = "QLinearSoftmaxNotAnOp"
    onnx.save(m, os.path.join(OUT, "unknown_op.onnx"))
    expect_error("unknown_op", os.path.join(OUT, "unknown_op.onnx"), feeds,
                 "(com.microsoft:QLinearSoftmaxNotAnOp): operator not supported")

    if failures:
        print("\n".join(["FAILED:"] + failures))
        return 1
    print(f"all {len(cases)} models match{' ONNX Runtime' if HAVE_ORT else ''}; malformed nodes rejected cleanly")
    return 0


if __name__ == "__main__":
    sys.exit(main())

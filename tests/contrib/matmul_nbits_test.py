#!/usr/bin/python3
"""com.microsoft MatMulNBits: block-quantized weights written here with numpy (as ONNX
Runtime's quantizer lays them out), run by twinrt and compared with a numpy product of the
dequantized weights and, when onnxruntime-node is installed, with ONNX Runtime; malformed
nodes must exit 2 with an error naming the node.

usage: matmul_nbits_test.py TWINRT_BIN OUT_DIR [ONNXRUNTIME_NODE_DIR]
"""
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

import ms_ops_test as ms  # shared helpers: model writing, twinrt runs, ORT comparison

TOL = 1e-4  # outputs of magnitude ~1: float32 sums of a few hundred terms in another order
TOL_F16 = 4e-3  # float16 outputs of magnitude < 4: a step is at most 2e-3
ms.ONNX_TYPE[np.float16] = TensorProto.FLOAT16


def pack(codes, bits):
    """uint8 rows of `bits`-bit codes, low bits first (codes: [..., count], count * bits % 8 == 0)."""
    per_byte = 8 // bits
    codes = codes.reshape(*codes.shape[:-1], -1, per_byte).astype(np.uint16)
    return sum(codes[..., i] << (i * bits) for i in range(per_byte)).astype(np.uint8)


def quantize(w, bits, block, zero_kind, dtype=np.float32):
    """w [K, N] -> (B, scales, zero_points or None, dequantized [K, N]) as MatMulNBits reads them.
    zero_kind: None (symmetric, default zero point 2^(bits-1)), "uint8" (packed) or "float" (dtype).
    dtype: the type of the scales (A's type)."""
    k, n = w.shape
    blocks = -(-k // block)
    padded = np.zeros((blocks * block, n), np.float32)
    padded[:k] = w
    wb = padded.T.reshape(n, blocks, block)  # per column, per block
    top = (1 << bits) - 1
    lo, hi = np.minimum(wb.min(-1), 0), np.maximum(wb.max(-1), 0)
    if zero_kind is None:
        zero = np.full((n, blocks), 1 << (bits - 1), np.float32)
        scale = np.maximum(np.abs(lo), np.abs(hi)) / (1 << (bits - 1))
    else:
        scale = (hi - lo) / top
        zero = np.clip(np.round(-lo / scale), 0, top).astype(np.float32)
    scale = np.maximum(scale, 1e-3).astype(dtype).astype(np.float32)
    codes = np.clip(np.round(wb / scale[..., None] + zero[..., None]), 0, top).astype(np.uint8)
    codes[:, -1, block - (blocks * block - k):] = 0  # padding past K (any value is allowed)
    deq = ((codes.astype(np.float32) - zero[..., None]) * scale[..., None]).reshape(n, -1)[:, :k].T
    zp = None
    if zero_kind == "uint8":
        row = -(-blocks * bits // 8) * 8 // bits  # each column's zero points padded to whole bytes
        z = np.zeros((n, row), np.uint8)
        z[:, :blocks] = zero
        zp = pack(z, bits).ravel()
    elif zero_kind == "float":
        zp = zero.ravel().astype(dtype)
    return pack(codes, bits), scale.ravel().astype(dtype), zp, np.ascontiguousarray(deq)


def nbits_case(a_shape, n, bits, block, zero_kind, bias, const_weights=True, name=None, dtype=np.float32):
    k = a_shape[-1]
    w = ms.rng.normal(0, 0.1, (k, n)).astype(np.float32)
    b, scales, zp, deq = quantize(w, bits, block, zero_kind, dtype)
    values = {"B": b, "scales": scales}
    if zp is not None:
        values["zp"] = zp
    if bias:
        values["bias"] = ms.rng.normal(0, 1, n).astype(dtype)
    node_inputs = ["a", "B", "scales", "zp" if zp is not None else "", "", "bias" if bias else ""]
    while node_inputs[-1] == "":
        node_inputs.pop()
    node = helper.make_node("MatMulNBits", node_inputs, ["y"], name="n", domain=ms.MS, K=k, N=n, bits=bits,
                            block_size=block, accuracy_level=0)
    tag = name or (f"MatMulNBits_{'x'.join(map(str, a_shape))}_n{n}_bits{bits}_bs{block}_zp{zero_kind}"
                   f"{'_bias' if bias else ''}{'' if const_weights else '_fed'}_{np.dtype(dtype).name}")
    feeds = {"a": ms.rng.normal(0, 1, a_shape).astype(dtype)}
    graph_inputs = [("a", dtype, a_shape)]
    inits = []
    for key, v in values.items():
        if const_weights:
            inits.append(ms.const(key, v))
        else:
            feeds[key] = v
            graph_inputs.append((key, v.dtype.type, list(v.shape)))
    path = ms.make_model(tag, node, graph_inputs, [("y", dtype, list(a_shape[:-1]) + [n])], inits)
    ref = feeds["a"].astype(np.float64) @ deq.astype(np.float64) + (values["bias"].astype(np.float64) if bias else 0)
    return tag, path, feeds, ref


def tolerance(feeds):
    return TOL_F16 if feeds["a"].dtype == np.float16 else TOL


def check_against_numpy(tag, path, feeds, ref, flags=()):
    got = ms.run_twinrt(tag, path, feeds, list(flags))
    if got is None:
        return
    worst = float(np.abs(got.astype(np.float64) - ref).max()) if got.shape == ref.shape else float("inf")
    ok = worst <= tolerance(feeds) and got.dtype == feeds["a"].dtype
    print(f"{tag} {' '.join(flags)}: shape {list(got.shape)}, max |twinrt - numpy| = {worst:.3g} {'ok' if ok else 'FAIL'}")
    if not ok:
        ms.failures.append(f"{tag} {flags}: differs from the numpy product of the dequantized weights by {worst}")


def expect_exit_2(name, path, feeds, pattern):
    r = subprocess.run([ms.TWINRT, "run", path] + ms.input_flags(name, feeds), capture_output=True, text=True)
    text = r.stdout + r.stderr
    ok = r.returncode == 2 and pattern in text and "node 'n' (com.microsoft:MatMulNBits)" in text
    print(f"{name}: exit {r.returncode}, {'ok' if ok else 'FAIL'}: {text.strip().splitlines()[-1] if text.strip() else ''}")
    if not ok:
        ms.failures.append(f"{name}: expected exit 2 with '{pattern}' naming the node, got exit {r.returncode}: {text}")


def edit(path, out_name, change):
    m = onnx.load(path)
    change(m)
    out = os.path.join(ms.OUT, out_name + ".onnx")
    onnx.save(m, out)
    return out


def main():
    os.makedirs(ms.OUT, exist_ok=True)
    cases = [
        nbits_case([2, 3, 64], 8, 4, 32, "uint8", False),  # batch dims on A
        nbits_case([5, 100], 10, 4, 32, None, True),  # K not a multiple of block_size, default zero point 8
        nbits_case([1, 4, 70], 12, 4, 16, "uint8", True),  # 5 blocks: odd count, packed zero points padded
        nbits_case([3, 256], 40, 4, 128, "uint8", True),
        nbits_case([2, 40], 6, 8, 16, "uint8", True),  # 8-bit codes, K padded
        nbits_case([2, 40], 6, 8, 32, None, False),  # 8-bit, default zero point 128
        nbits_case([3, 50], 7, 4, 16, "float", True),  # float zero points
        nbits_case([2, 2, 100], 9, 4, 32, "uint8", True, const_weights=False),  # dequantized at run time
        nbits_case([2, 3, 64], 8, 4, 32, "uint8", True, dtype=np.float16),
        nbits_case([5, 100], 10, 4, 32, None, True, dtype=np.float16),
        nbits_case([3, 50], 7, 4, 16, "float", False, dtype=np.float16),
    ]
    for tag, path, feeds, ref in cases:
        check_against_numpy(tag, path, feeds, ref)
        check_against_numpy(tag, path, feeds, ref, ("--mode", "reference"))
        if ms.HAVE_ORT:
            ms.check_against_ort(tag, path, feeds, tolerance(feeds))

    # Malformed nodes: exit 2, the node named.
    tag, path, feeds, _ = nbits_case([2, 64], 8, 4, 32, "uint8", False, name="nbits_base")

    def set_attr(name, value):
        def change(m):
            for a in m.graph.node[0].attribute:
                if a.name == name:
                    a.CopyFrom(helper.make_attribute(name, value))
        return change

    def set_init(name, value):
        def change(m):
            for i in m.graph.initializer:
                if i.name == name:
                    i.CopyFrom(ms.const(name, value))
        return change

    expect_exit_2("nbits_bits3", edit(path, "nbits_bits3", set_attr("bits", 3)), feeds, "bits = 4 or 8, got 3")
    expect_exit_2("nbits_huge_n", edit(path, "nbits_huge_n", set_attr("N", 1 << 40)), feeds,
                  "attributes K and N in [1, 2^31)")
    expect_exit_2("nbits_block24", edit(path, "nbits_block24", set_attr("block_size", 24)), feeds,
                  "block_size must be a power of 2")
    expect_exit_2("nbits_wrong_n", edit(path, "nbits_wrong_n", set_attr("N", 9)), feeds,
                  "B must be uint8 of shape [9,2,16]")
    expect_exit_2("nbits_wrong_b", edit(path, "nbits_wrong_b", set_init("B", np.zeros((8, 2, 8), np.uint8))), feeds,
                  "B must be uint8 of shape [8,2,16]")
    expect_exit_2("nbits_scales", edit(path, "nbits_scales", set_init("scales", np.ones(15, np.float32))), feeds,
                  "scales must be float32 or float16 with N * n_blocks = 16 values")
    expect_exit_2("nbits_zero_points", edit(path, "nbits_zero_points", set_init("zp", np.zeros(9, np.uint8))), feeds,
                  "zero_points must be uint8 with 8 values")
    expect_exit_2("nbits_a_k", ms.symbolic_inputs(path, "nbits_any_a"), {"a": np.zeros((2, 63), np.float32)}, "A's last dimension must be K = 64")

    tag, path, feeds, _ = nbits_case([2, 64], 8, 4, 32, None, False, name="nbits_f16", dtype=np.float16)

    def float32_a(m):
        m.graph.input[0].type.tensor_type.elem_type = TensorProto.FLOAT
        m.graph.output[0].type.tensor_type.elem_type = TensorProto.FLOAT
    expect_exit_2("nbits_mixed_types", edit(path, "nbits_mixed_types", float32_a), {"a": feeds["a"].astype(np.float32)},
                  "scales must have A's type float32, got float16")

    if ms.failures:
        print("\n".join(["FAILED:"] + ms.failures))
        return 1
    print(f"all {len(cases)} MatMulNBits models match numpy{' and ONNX Runtime' if ms.HAVE_ORT else ''}; "
          "malformed nodes rejected cleanly")
    return 0


if __name__ == "__main__":
    sys.exit(main())

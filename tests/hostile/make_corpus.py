#!/usr/bin/python3
"""Writes the hostile-input corpus (issue 9; docs/security.md) into a folder, with a
manifest.json that tests/hostile/run_native.py and run_web.mjs read.

    /usr/bin/python3 tests/hostile/make_corpus.py OUT_DIR

Deterministic (fixed seeds). Needs Debian's python3-onnx and python3-numpy. Each case is a
`twinrt` command line (paths relative to OUT_DIR) and what must happen: "error" (exit code 2
and a "twinrt: error:" line, optionally matching `match`) or "clean" (exit 0, or a clean
error: damaged files may still parse). Cases with a "web" entry also run through twinrt-web.
"""
import json
import os
import random
import struct
import sys
import zlib

try:
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper
except ImportError as e:  # ctest counts exit code 77 as skipped
    print(f"skipped: {e} (apt-get install python3-onnx python3-numpy)")
    sys.exit(77)

F = TensorProto.FLOAT
GiB = 1 << 30

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
cases = []


def case(name, kind, args, expect="error", match=None, web=None):
    cases.append({"name": name, "kind": kind, "args": args, "expect": expect, "match": match, "web": web})


def model(nodes, inputs, outputs, initializers=(), sparse=(), functions=(), opset=17, domains=()):
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(initializers), sparse_initializer=list(sparse))
    imports = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, 1) for d in domains]
    m = helper.make_model(graph, producer_name="twinrt-hostile", opset_imports=imports, functions=list(functions))
    m.ir_version = 8
    return m


def vi(name, shape, elem=F):
    return helper.make_tensor_value_info(name, elem, shape)


def write(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.SerializeToString())
    return name


def run_model(name, kind, data, expect="error", match=None, extra=(), web=True):
    """A model file run with random inputs; twinrt-web gets the same bytes."""
    path = write(name, data)
    case(name, kind, ["run", path, *extra], expect, match, {"model": path} if web else None)


# A small valid network: Conv, Relu, Reshape, MatMul, Add, Softmax, with a local function.
rng = np.random.default_rng(9)
conv_w = numpy_helper.from_array(rng.standard_normal((4, 3, 3, 3)).astype(np.float32), "conv_w")
conv_b = numpy_helper.from_array(rng.standard_normal(4).astype(np.float32), "conv_b")
shape = numpy_helper.from_array(np.array([1, 144], dtype=np.int64), "shape")
fc_w = numpy_helper.from_array(rng.standard_normal((144, 10)).astype(np.float32), "fc_w")
fc_b = numpy_helper.from_array(rng.standard_normal(10).astype(np.float32), "fc_b")
affine = helper.make_function("local", "Affine", ["a", "w", "b"], ["r"],
                              [helper.make_node("MatMul", ["a", "w"], ["m"]), helper.make_node("Add", ["m", "b"], ["r"])],
                              [helper.make_opsetid("", 17)])
base = model([helper.make_node("Conv", ["x", "conv_w", "conv_b"], ["c"], name="conv"),
              helper.make_node("Relu", ["c"], ["r"], name="relu"),
              helper.make_node("Reshape", ["r", "shape"], ["f"], name="flat"),
              helper.make_node("Affine", ["f", "fc_w", "fc_b"], ["l"], name="fc", domain="local"),
              helper.make_node("Softmax", ["l"], ["y"], name="softmax")],
             [vi("x", [1, 3, 8, 8])], [vi("y", [1, 10])], [conv_w, conv_b, shape, fc_w, fc_b],
             functions=[affine], domains=["local"])
base_bytes = base.SerializeToString()
run_model("valid.onnx", "control", base, expect="ok")

# Truncations at 24 points, from the first byte to one byte short.
for i, cut in enumerate(sorted({1, 2, 7, *[len(base_bytes) * k // 22 for k in range(1, 22)], len(base_bytes) - 1})):
    run_model(f"truncated_{i:02d}_{cut}.onnx", "truncation", base_bytes[:cut], expect="clean")

# Bit flips: 1 to 8 random bits each (they may still parse and run: "clean").
flip_rng = random.Random(14)
for i in range(40):
    b = bytearray(base_bytes)
    for _ in range(flip_rng.randint(1, 8)):
        pos = flip_rng.randrange(len(b))
        b[pos] ^= 1 << flip_rng.randrange(8)
    run_model(f"bitflip_{i:02d}.onnx", "bit flip", bytes(b), expect="clean")
run_model("random_bytes.onnx", "bit flip", bytes(flip_rng.randrange(256) for _ in range(4096)), expect="clean")
run_model("empty.onnx", "truncation", b"", match="graph|empty|ModelProto")

# Declared sizes far beyond any default limit (an eighth of memory for one tensor).
ident = [helper.make_node("Identity", ["x"], ["y"])]
run_model("input_16gib.onnx", "bomb", model(ident, [vi("x", [4, 1024, 1024, 1024])], [vi("y", None)]),
          match="max-tensor-bytes")
run_model("input_1tib.onnx", "bomb", model(ident, [vi("x", [256, 1024, 1024, 1024])], [vi("y", None)]),
          match="max-tensor-bytes")
run_model("input_overflowing_dims.onnx", "absurd dims",
          model(ident, [vi("x", [1 << 40, 1 << 40, 1 << 40])], [vi("y", None)]), match="max-tensor-bytes|too large")
sym = model(ident, [vi("x", ["n", 1024])], [vi("y", None)])
write("symbolic.onnx", sym)
case("dim_16gib", "bomb", ["run", "symbolic.onnx", "--dim", "n=4194304"], match="max-tensor-bytes")
case("dim_beyond_int64", "absurd dims", ["run", "symbolic.onnx", "--dim", "n=99999999999999999999"], match="--dim")
case("threads_100000", "absurd dims", ["run", "valid.onnx", "--threads", "100000"], match="--threads")

# 64 sparse initializers, each declaring a 1 GiB dense tensor from one value.
def sparse_gib(i):
    values = numpy_helper.from_array(np.array([1.0], dtype=np.float32), f"s{i}")
    indices = numpy_helper.from_array(np.array([0], dtype=np.int64), f"s{i}_idx")
    return helper.make_sparse_tensor(values, indices, [256, 1024, 1024])
sum_all = [helper.make_node("Sum", [f"s{i}" for i in range(64)], ["y"])]
run_model("sparse_64x1gib.onnx", "bomb", model(sum_all, [], [vi("y", None)], sparse=[sparse_gib(i) for i in range(64)]),
          match="max-memory")
one_sparse = [helper.make_node("Identity", ["s0"], ["y"])]
huge_values = numpy_helper.from_array(np.array([1.0], dtype=np.float32), "s0")
huge_idx = numpy_helper.from_array(np.array([0], dtype=np.int64), "s0_idx")
run_model("sparse_absurd_dims.onnx", "absurd dims",
          model(one_sparse, [], [vi("y", None)],
                sparse=[helper.make_sparse_tensor(huge_values, huge_idx, [1 << 40, 1 << 40])]),
          match="too large|max-memory")

# Initializers whose dims claim far more than their data, and negative dims.
lie = numpy_helper.from_array(np.zeros(4, dtype=np.float32), "w")
del lie.dims[:]
lie.dims.extend([1 << 20, 1 << 20])
run_model("initializer_dims_lie.onnx", "absurd dims",
          model([helper.make_node("Identity", ["w"], ["y"])], [], [vi("y", None)], [lie]),
          match="max-tensor-bytes|max-memory|too large")
neg = numpy_helper.from_array(np.zeros(4, dtype=np.float32), "w")
del neg.dims[:]
neg.dims.extend([-2, -2])
run_model("initializer_negative_dims.onnx", "absurd dims",
          model([helper.make_node("Identity", ["w"], ["y"])], [], [vi("y", None)], [neg]), match="negative")

# Values whose size is only known while running: shapes from data.
def runtime_bomb(name, nodes, inits, match="max-tensor-bytes"):
    run_model(name, "bomb", model(nodes, [], [vi("y", None)], inits), match=match)
runtime_bomb("constant_of_shape_4tib.onnx", [helper.make_node("ConstantOfShape", ["s"], ["y"])],
             [numpy_helper.from_array(np.array([1 << 20, 1 << 20], dtype=np.int64), "s")])
runtime_bomb("expand_4tib.onnx", [helper.make_node("Expand", ["one", "s"], ["y"])],
             [numpy_helper.from_array(np.ones(1, dtype=np.float32), "one"),
              numpy_helper.from_array(np.array([1 << 20, 1 << 20], dtype=np.int64), "s")])
runtime_bomb("tile_4tib.onnx", [helper.make_node("Tile", ["one", "r"], ["y"])],
             [numpy_helper.from_array(np.ones((1, 1), dtype=np.float32), "one"),
              numpy_helper.from_array(np.array([1 << 20, 1 << 20], dtype=np.int64), "r")])
runtime_bomb("range_huge.onnx", [helper.make_node("Range", ["a", "b", "d"], ["y"])],
             [numpy_helper.from_array(np.array(0, dtype=np.int64), "a"),
              numpy_helper.from_array(np.array(1 << 38, dtype=np.int64), "b"),
              numpy_helper.from_array(np.array(1, dtype=np.int64), "d")], match="max-tensor-bytes|too large|Range")
# The shape from an input file: only known while running.
write("constant_of_shape_input.onnx", model([helper.make_node("ConstantOfShape", ["s"], ["y"])],
                                            [vi("s", [2], TensorProto.INT64)], [vi("y", None)]))
np.save(os.path.join(out, "shape_4tib.npy"), np.array([1 << 20, 1 << 20], dtype=np.int64))
case("constant_of_shape_from_input", "bomb", ["run", "constant_of_shape_input.onnx", "--input", "s=shape_4tib.npy"],
     match="max-tensor-bytes")
runtime_bomb("reshape_negative.onnx", [helper.make_node("Reshape", ["one", "s"], ["y"])],
             [numpy_helper.from_array(np.ones(4, dtype=np.float32), "one"),
              numpy_helper.from_array(np.array([-5, 3], dtype=np.int64), "s")], match="Reshape")

# Recursion: a function calling itself; functions calling each other in fan-out (2 x 30).
selfcall = helper.make_function("local", "F", ["a"], ["b"], [helper.make_node("F", ["a"], ["b"], domain="local")],
                                [helper.make_opsetid("", 17), helper.make_opsetid("local", 1)])
run_model("function_recursive.onnx", "recursion",
          model([helper.make_node("F", ["x"], ["y"], domain="local")], [vi("x", [1])], [vi("y", [1])],
                functions=[selfcall], domains=["local"]), match="recursive|deeper")
fanout = []
for level in range(30):
    callee = f"F{level + 1}" if level < 29 else None
    body = ([helper.make_node(callee, ["a"], ["m"], domain="local"), helper.make_node(callee, ["m"], ["b"], domain="local")]
            if callee else [helper.make_node("Identity", ["a"], ["b"])])
    fanout.append(helper.make_function("local", f"F{level}", ["a"], ["b"], body,
                                       [helper.make_opsetid("", 17), helper.make_opsetid("local", 1)]))
run_model("function_fanout_2x30.onnx", "recursion",
          model([helper.make_node("F0", ["x"], ["y"], domain="local")], [vi("x", [1])], [vi("y", [1])],
                functions=fanout, domains=["local"]), match="fan-out")

# Graphs nested 100 deep through If (the readers stop at 64).
cond = numpy_helper.from_array(np.array(True), "cond")
leaf = helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], "leaf", [], [vi("y", [1])])
inner = leaf
for depth in range(100):
    node = helper.make_node("If", ["cond"], ["y"], then_branch=inner, else_branch=leaf)
    inner = helper.make_graph([node], f"level{depth}", [], [vi("y", [1])])
run_model("if_nested_100.onnx", "recursion", model(inner.node, [vi("x", [1])], [vi("y", [1])], [cond]),
          match="nested deeper|nest")

# External data: traversal, absolute paths, a symlink out of the folder, a FIFO, a device, a
# sparse 32 GiB file.
def external_model(name, kind, location, match, dims=(3,), length=None):
    t = numpy_helper.from_array(np.zeros(3, dtype=np.float32), "w")
    t.ClearField("raw_data")
    del t.dims[:]
    t.dims.extend(dims)
    t.data_location = TensorProto.EXTERNAL
    for key, value in [("location", location)] + ([("length", str(length))] if length is not None else []):
        e = t.external_data.add()
        e.key, e.value = key, value
    path = write(name, model([helper.make_node("Identity", ["w"], ["y"])], [], [vi("y", None)], [t]))
    case(name, kind, ["run", path], match=match)


external_model("external_dotdot.onnx", "traversal", "../../../../../../etc/passwd", r"\.\.")
external_model("external_absolute.onnx", "traversal", "/etc/passwd", "relative|absolute")
if not os.path.lexists(os.path.join(out, "outside_link")):
    os.symlink("/etc", os.path.join(out, "outside_link"))
external_model("external_symlink_out.onnx", "traversal", "outside_link/passwd", "outside|folder")
fifo = os.path.join(out, "external.fifo")
if not os.path.exists(fifo):
    os.mkfifo(fifo)
external_model("external_fifo.onnx", "fifo", "external.fifo", "FIFO")
if not os.path.lexists(os.path.join(out, "zero_link")):
    os.symlink("/dev/zero", os.path.join(out, "zero_link"))
external_model("external_device.onnx", "fifo", "zero_link", "device|outside")
with open(os.path.join(out, "huge.bin"), "wb") as f:
    f.truncate(32 * GiB)
external_model("external_huge.onnx", "bomb", "huge.bin", "max-tensor-bytes|max-memory", dims=(8, 1024, 1024, 1024),
               length=32 * GiB)

# The model itself: a FIFO, a device, a directory, a symlink to a device.
model_fifo = os.path.join(out, "model.fifo")
if not os.path.exists(model_fifo):
    os.mkfifo(model_fifo)
case("model_fifo", "fifo", ["run", "model.fifo"], match="FIFO")
case("model_device", "fifo", ["run", "/dev/zero"], match="device")
case("model_directory", "fifo", ["run", "."], match="directory")
case("model_symlink_device", "fifo", ["run", "zero_link"], match="device")

# Inputs: FIFOs, devices, a sparse 16 GiB .npy, .npz members declaring gigabytes.
input_fifo = os.path.join(out, "input.fifo.npy")
if not os.path.exists(input_fifo):
    os.mkfifo(input_fifo)
case("input_fifo", "fifo", ["run", "valid.onnx", "--input", "x=input.fifo.npy"], match="FIFO")
if not os.path.lexists(os.path.join(out, "input_zero.npy")):
    os.symlink("/dev/zero", os.path.join(out, "input_zero.npy"))
case("input_device", "fifo", ["run", "valid.onnx", "--input", "x=input_zero.npy"], match="device")
with open(os.path.join(out, "input_16gib.npy"), "wb") as f:
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 1024, 1024, 1024), }"
    header += " " * (64 - (10 + len(header) + 1) % 64) + "\n"
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
    f.truncate(16 * GiB + 128)
write("input_any.onnx", model(ident, [vi("x", None)], [vi("y", None)]))
case("input_npy_16gib", "bomb", ["run", "input_any.onnx", "--input", "x=input_16gib.npy"], match="max-tensor-bytes")
case("input_npy_truncated", "truncation", ["run", "valid.onnx", "--input", "x=input_truncated.npy"], match="truncated")
with open(os.path.join(out, "input_truncated.npy"), "wb") as f:
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3, 8, 8), }"
    header += " " * (64 - (10 + len(header) + 1) % 64) + "\n"
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + b"\0" * 40)


def npz_bomb(name, declared):
    """A deflate member whose directory declares `declared` bytes (zip64 sizes)."""
    member = b"x.npy"
    data = zlib.compress(b"\0" * 1024)[2:-4]
    crc = zlib.crc32(b"\0" * 1024)
    extra = struct.pack("<HHQQ", 1, 16, declared, len(data))
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 45, 0, 8, 0, 0, crc, 0xFFFFFFFF, 0xFFFFFFFF, len(member),
                        len(extra)) + member + extra + data
    central = struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 45, 45, 0, 8, 0, 0, crc, 0xFFFFFFFF, 0xFFFFFFFF,
                          len(member), len(extra), 0, 0, 0, 0, 0) + member + extra
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(central), len(local), 0)
    write(name, local + central + end)


npz_bomb("npz_member_64gib.npz", 64 * GiB)
case("npz_member_64gib", "bomb", ["compare", "input_any.onnx", "--engines", "twinrt,twinrt-ref", "--input",
                                  "npz_member_64gib.npz"], match="max-tensor-bytes")

with open(os.path.join(out, "manifest.json"), "w") as f:
    json.dump({"cases": cases}, f, indent=1)
print(f"{len(cases)} cases in {out}")

#!/usr/bin/python3
"""Layer-by-layer times of twinrt against ONNX Runtime on one model.

    twinrt bench MODEL --threads 1 --runs 40 --profile --json > tw.json
    node tools/ort_profile.js MODEL --shape 1,3,224,224 --runs 40 > ort.json
    tools/compare_node_times.py MODEL tw.json ort.json [--top N] [--scale]

The two runtimes fuse and rename nodes differently, so nodes are matched by what they compute:
a Conv, Gemm or MatMul by its weight shape and its input's spatial size (layers of the same
shape are summed, and the `n` column says how many twinrt nodes a row holds; a node ONNX
Runtime kept under its model name by that name), anything else by op type. --scale multiplies twinrt's times so that both
totals are equal: on a machine whose speed drifts between the two runs, the shares still
compare. Rows are sorted by how much more time twinrt takes.
"""
import argparse
import json
import sys

import onnx
from onnx import shape_inference


def layer_key(op, weight_shape, input_shape):
    return f"{op} W{list(weight_shape)} in{list(input_shape[2:])}"


def twinrt_keys(model_path):
    """Node name -> layer key for the nodes with a constant weight input."""
    model = shape_inference.infer_shapes(onnx.load(model_path))
    graph = model.graph
    weights = {t.name: list(t.dims) for t in graph.initializer}
    shapes = {v.name: [d.dim_value for d in v.type.tensor_type.shape.dim]
              for v in list(graph.value_info) + list(graph.input)}
    keys = {}
    for node in graph.node:
        if node.op_type in ("Conv", "Gemm", "MatMul") and len(node.input) > 1 and node.input[1] in weights:
            keys[node.name] = layer_key(node.op_type, weights[node.input[1]], shapes.get(node.input[0], []))
    return keys


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model")
    parser.add_argument("twinrt_json")
    parser.add_argument("ort_json")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--scale", action="store_true")
    args = parser.parse_args()
    try:
        keys = twinrt_keys(args.model)
        twinrt_nodes = json.load(open(args.twinrt_json))["profile"]["nodes"]
        ort_nodes = json.load(open(args.ort_json))["nodes"]
    except Exception as e:  # a missing or corrupt file: name it, exit 2 like the CLI
        print(f"compare_node_times: {e}", file=sys.stderr)
        sys.exit(2)
    tw, ort, count = {}, {}, {}
    for n in twinrt_nodes:  # a fused node is named after its nodes, "conv+add+relu"
        key = keys.get(n["node"].split("+")[0], n["op"])
        tw[key] = tw.get(key, 0.0) + n["ms_per_run"]
        count[key] = count.get(key, 0) + 1
    for n in ort_nodes:
        op = n["op"].replace("Fused", "")
        shapes = n["input_shapes"]
        if n["name"] in keys:  # a node ONNX Runtime kept under its model name
            key = keys[n["name"]]
        elif op in ("Conv", "Gemm", "MatMul") and len(shapes) > 1:
            key = layer_key(op, shapes[1], shapes[0])
        else:
            key = op
        ort[key] = ort.get(key, 0.0) + n["ms_per_run"]
    tw_total, ort_total = sum(tw.values()), sum(ort.values())
    scale = ort_total / tw_total if args.scale and tw_total > 0 else 1.0
    print(f"node time per run: twinrt {tw_total:.3f} ms, ONNX Runtime {ort_total:.3f} ms"
          + (f" (twinrt's times below x {scale:.3f})" if args.scale else ""))
    print(f"{'layer':48s} {'n':>3s} {'twinrt ms':>10s} {'ORT ms':>10s} {'ratio':>7s}")
    rows = sorted(set(tw) | set(ort), key=lambda k: -(tw.get(k, 0.0) * scale - ort.get(k, 0.0)))
    for k in rows[: args.top]:
        t, o = tw.get(k, 0.0) * scale, ort.get(k, 0.0)
        ratio = f"{t / o:7.2f}" if o > 0 else "      -"
        print(f"{k[:48]:48s} {count.get(k, 0):3d} {t:10.3f} {o:10.3f} {ratio}")


if __name__ == "__main__":
    main()

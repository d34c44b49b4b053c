#!/usr/bin/python3
"""Writes a copy of an ONNX model with one Conv's weights scaled by a factor.

    perturb_conv.py MODEL OUT [--index K] [--factor 1.05]

Picks the K-th Conv (default: the one in the middle of the graph) whose weight is an
initializer or a Constant, and prints that Conv's node name, so a test can check that
`twinrt localize` names it.
"""
import argparse

import numpy as np
import onnx
from onnx import numpy_helper


def main():
    p = argparse.ArgumentParser()
    p.add_argument("model")
    p.add_argument("out")
    p.add_argument("--index", type=int, default=None)
    p.add_argument("--factor", type=float, default=1.05)
    a = p.parse_args()
    model = onnx.load(a.model)
    # Weights are initializers or Constant nodes (paddle2onnx exports use the latter).
    weights = {t.name: t for t in model.graph.initializer}
    for n in model.graph.node:
        if n.op_type == "Constant" and n.attribute[0].name == "value":
            weights[n.output[0]] = n.attribute[0].t
    convs = [n for n in model.graph.node if n.op_type == "Conv" and n.input[1] in weights]
    if not convs:
        raise SystemExit("no Conv with a constant weight in " + a.model)
    conv = convs[len(convs) // 2 if a.index is None else a.index]
    weight = weights[conv.input[1]]
    scaled = numpy_helper.to_array(weight).astype(np.float32) * np.float32(a.factor)
    weight.CopyFrom(numpy_helper.from_array(scaled, weight.name))
    if not conv.name:
        raise SystemExit("the chosen Conv has no name")
    onnx.save(model, a.out)
    print(conv.name)


if __name__ == "__main__":
    main()

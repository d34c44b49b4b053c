#!/usr/bin/python3
"""Exports torchvision classifiers to ONNX (opset 17) with seeded random weights.

Usage: export_torchvision.py OUT_DIR [NAME...]. NAME is a torchvision.models constructor
(squeezenet1_1, efficientnet_b0, vit_b_16, ...); without names, resnet50 and mobilenet_v2,
the two models the tests use. Needs Debian's python3-torch and python3-torchvision.
"""
import os
import sys

import torch
import torchvision


def calibrate_batchnorm(model):
    """Sets BatchNorm running statistics from a random batch.

    Freshly initialised running stats (mean 0, var 1) let activations shrink layer after
    layer (MobileNetV2's logits end up near 1e-9), which would make an absolute-error
    comparison meaningless. Batch statistics keep every layer's activations near unit scale,
    as in a trained network.
    """
    for m in model.modules():
        if isinstance(m, torch.nn.modules.batchnorm._BatchNorm):
            m.reset_running_stats()
            m.momentum = None  # cumulative average over the calibration batch
    model.train()
    with torch.no_grad():
        model(torch.rand(8, 3, 224, 224) * 2 - 1)


def export(name, model, out_dir):
    calibrate_batchnorm(model)
    model.eval()
    x = torch.zeros(1, 3, 224, 224)
    path = os.path.join(out_dir, name + ".onnx")
    torch.onnx.export(model, x, path, opset_version=17, input_names=["input"], output_names=["logits"],
                      dynamic_axes={"input": {0: "batch"}, "logits": {0: "batch"}})
    print(path)


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: export_torchvision.py OUT_DIR [NAME...]")
    out_dir = sys.argv[1]
    names = sys.argv[2:] or ["resnet50", "mobilenet_v2"]
    unknown = [n for n in names if not callable(getattr(torchvision.models, n, None))]
    if unknown:
        sys.exit("export_torchvision.py: not a torchvision model: " + ", ".join(unknown))
    os.makedirs(out_dir, exist_ok=True)
    for name in names:
        torch.manual_seed(0)
        export(name, getattr(torchvision.models, name)(weights=None), out_dir)


if __name__ == "__main__":
    main()

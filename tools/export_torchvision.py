#!/usr/bin/python3
"""Exports torchvision ResNet-50 and MobileNetV2 to ONNX (opset 17) with seeded random weights.

Usage: export_torchvision.py OUT_DIR. Needs Debian's python3-torch and python3-torchvision.
"""
import os
import sys

import torch
import torchvision


def export(name, model, out_dir):
    model.eval()
    x = torch.zeros(1, 3, 224, 224)
    path = os.path.join(out_dir, name + ".onnx")
    torch.onnx.export(model, x, path, opset_version=17, input_names=["input"], output_names=["logits"],
                      dynamic_axes={"input": {0: "batch"}, "logits": {0: "batch"}})
    print(path)


def main():
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    torch.manual_seed(0)
    export("resnet50", torchvision.models.resnet50(weights=None), out_dir)
    torch.manual_seed(0)
    export("mobilenet_v2", torchvision.models.mobilenet_v2(weights=None), out_dir)


if __name__ == "__main__":
    main()

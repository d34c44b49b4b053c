#!/usr/bin/python3
"""Exports a PyTorch two-layer bidirectional LSTM (input 16, hidden 32, batch_first) to ONNX
opset 17 with seeded weights, as OUT_DIR/bilstm.onnx. PyTorch writes its LSTM nodes without
an `activations` attribute, so the spec's defaults must apply in both directions.

Usage: export_lstm.py OUT_DIR. Needs Debian's python3-torch. Input `x` float32 [1, 20, 16];
outputs `y`, `h`, `c`.
"""
import os
import sys

import torch


def main(out_dir):
    torch.manual_seed(0)
    model = torch.nn.LSTM(input_size=16, hidden_size=32, num_layers=2, bidirectional=True, batch_first=True)
    os.makedirs(out_dir, exist_ok=True)
    torch.onnx.export(model.eval(), (torch.randn(1, 20, 16),), os.path.join(out_dir, "bilstm.onnx"),
                      opset_version=17, input_names=["x"], output_names=["y", "h", "c"])


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: export_lstm.py OUT_DIR")
    main(sys.argv[1])

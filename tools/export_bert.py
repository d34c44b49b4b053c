#!/usr/bin/python3
"""Exports a BERT-base-size encoder (12 layers, hidden 768, 12 heads, FFN 3072, GELU,
post-LayerNorm, vocabulary 30522) to ONNX opset 17 with seeded random weights.

Usage: export_bert.py OUT_DIR. Needs Debian's python3-torch. The input is `input_ids`
int64 [batch, sequence] (sequence <= 512); the output `hidden` float32 [batch, sequence, 768].
The layers are written out (no nn.TransformerEncoderLayer, whose fused fast path does not
export), as BERT's own code does: Q/K/V projections, scaled dot-product softmax, GELU.
"""
import math
import os
import sys

import torch
from torch import nn


class Layer(nn.Module):
    def __init__(self, hidden, heads, ffn):
        super().__init__()
        self.heads = heads
        self.q, self.k, self.v, self.o = (nn.Linear(hidden, hidden) for _ in range(4))
        self.ln1 = nn.LayerNorm(hidden, eps=1e-12)
        self.ff1 = nn.Linear(hidden, ffn)
        self.ff2 = nn.Linear(ffn, hidden)
        self.ln2 = nn.LayerNorm(hidden, eps=1e-12)

    def forward(self, x):
        b, t, d = x.shape
        dh = d // self.heads

        def split(y):
            return y.view(b, t, self.heads, dh).transpose(1, 2)

        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(dh)
        context = torch.matmul(scores.softmax(-1), v).transpose(1, 2).reshape(b, t, d)
        x = self.ln1(x + self.o(context))
        return self.ln2(x + self.ff2(nn.functional.gelu(self.ff1(x))))


class Encoder(nn.Module):
    def __init__(self, vocab=30522, hidden=768, layers=12, heads=12, ffn=3072, positions=512):
        super().__init__()
        self.words = nn.Embedding(vocab, hidden)
        self.positions = nn.Embedding(positions, hidden)
        self.ln = nn.LayerNorm(hidden, eps=1e-12)
        self.layers = nn.ModuleList(Layer(hidden, heads, ffn) for _ in range(layers))

    def forward(self, input_ids):
        t = input_ids.shape[1]
        pos = torch.arange(t, device=input_ids.device).unsqueeze(0)
        x = self.ln(self.words(input_ids) + self.positions(pos))
        for layer in self.layers:
            x = layer(x)
        return x


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else "."
    os.makedirs(out_dir, exist_ok=True)
    torch.manual_seed(0)
    model = Encoder()
    for p in model.parameters():  # BERT's initialisation: N(0, 0.02) weights
        if p.dim() > 1:
            nn.init.normal_(p, std=0.02)
    model.eval()
    ids = torch.zeros(1, 128, dtype=torch.int64)
    path = os.path.join(out_dir, "bert_base.onnx")
    with torch.no_grad():
        torch.onnx.export(model, ids, path, opset_version=17, input_names=["input_ids"], output_names=["hidden"],
                          dynamic_axes={"input_ids": {0: "batch", 1: "sequence"},
                                        "hidden": {0: "batch", 1: "sequence"}})
    print(path)


if __name__ == "__main__":
    main()

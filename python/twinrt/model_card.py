"""The model card export_check writes: twinrt's card of the exported file (contract,
opsets, hashes: ``twinrt inspect --markdown``) followed by how it was exported and the
parity measured against PyTorch."""

import os

import torch

from . import _twinrt


def _export_section(result, dynamic_axes, policy):
    axes = ", ".join(f"`{name}`: {dict(a) if isinstance(a, dict) else list(a)}" for name, a in (dynamic_axes or {}).items())
    return ("## Export check\n\n"
            "| | |\n|---|---|\n"
            f"| exporter | torch.onnx.export, PyTorch {torch.__version__} |\n"
            f"| opset | {result.opset} |\n"
            f"| dynamic axes | {axes or 'none'} |\n"
            f"| policy | {policy} |\n"
            f"| verdict | {'pass' if result.passed else 'FAIL'} |\n\n")


def _findings_section(result):
    if not result.findings:
        return "No export mistakes found (train-mode layers, opset, baked-in dimensions, Resize modes).\n\n"
    return "### Export mistakes found\n\n" + "".join(f"- **{f.kind}**: {f.message}\n" for f in result.findings) + "\n"


def _parity_section(result):
    md = ("## Measured parity (PyTorch = reference)\n\n"
          "| input shapes | engine | output | max abs | max rel | cosine | verdict |\n|---|---|---|---|---|---|---|\n")
    for shapes, report in zip(result.shapes, result.reports):
        shown = ", ".join(f"{n}={'x'.join(map(str, s))}" for n, s in shapes.items())
        for o in report.outputs:
            m = o["metrics"]
            md += (f"| {shown} | {o['engine']} | `{o['output']}` | {float(m['max_abs']):.3g} | "
                   f"{float(m['max_rel']):.3g} | {float(m['cosine']):.9f} | {o['verdict']['summary']} |\n")
        for e in report.engines:
            if not e["ok"]:
                md += f"| {shown} | {e['name']} | | | | | failed: {e['error']} |\n"
    for name, why in result.skipped_engines.items():
        md += f"\n{name} was not run: {why}\n"
    return md + "\n"


def write_card(card_path, result, dynamic_axes, policy):
    md = _twinrt.model_card(result.model_path)
    md += "\n" + _export_section(result, dynamic_axes, policy) + _findings_section(result) + _parity_section(result)
    with open(card_path, "w", encoding="utf-8") as f:
        f.write(md)
    return os.fspath(card_path)

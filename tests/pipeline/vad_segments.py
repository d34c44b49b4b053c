#!/usr/bin/env python3
"""The VAD example end to end: streams DIR/speech.wav (made by tools/make_vad_audio.py, with
its speech spans in DIR/speech.json) through examples/vad/vad.json, one run per chunk, and
checks that the segments are exactly the spoken phrases, each boundary within --tolerance
seconds. Writes the segments to DIR/segments_<engine>.json; with --same-as ENGINE they must
equal that engine's. Exits 77 (skip) when the engine cannot start.
"""
import argparse
import json
import math
import os
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("twinrt")
    ap.add_argument("pipeline")
    ap.add_argument("dir")
    ap.add_argument("--engine", default="twinrt")
    ap.add_argument("--tolerance", type=float, default=0.25)
    ap.add_argument("--same-as", help="an engine whose segments (written earlier) these must equal")
    args = ap.parse_args()
    with open(os.path.join(args.dir, "speech.json")) as f:
        truth = json.load(f)
    # One run per 512-sample chunk, and one past the end (it closes a segment still open).
    runs = math.ceil(truth["samples"] / 512) + 1
    cmd = [args.twinrt, "pipeline", "run", args.pipeline, "--input", "audio=" + os.path.join(args.dir, "speech.wav"),
           "--runs", str(runs), "--json", "--engine", args.engine]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        print(proc.stdout + proc.stderr)
        return 77 if args.engine != "twinrt" and ("install" in proc.stderr or "cannot start" in proc.stderr) else 1
    out = json.loads(proc.stdout)["outputs"]["segments"]
    data = out.get("data", [])
    segments = [[round(data[i], 4), round(data[i + 1], 4)] for i in range(0, len(data), 2)]
    print(f"{args.engine}: {runs} runs, segments {segments}, speech put at {truth['speech']}")
    with open(os.path.join(args.dir, f"segments_{args.engine}.json"), "w") as f:
        json.dump(segments, f)
    ok = len(segments) == len(truth["speech"]) and all(
        abs(s - t) <= args.tolerance for seg, span in zip(segments, truth["speech"]) for s, t in zip(seg, span))
    if not ok:
        print(f"FAIL: expected {len(truth['speech'])} segments within {args.tolerance} s of the speech")
        return 1
    if args.same_as:
        with open(os.path.join(args.dir, f"segments_{args.same_as}.json")) as f:
            other = json.load(f)
        if other != segments:
            print(f"FAIL: {args.same_as} found {other}")
            return 1
        print(f"same segments as {args.same_as}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

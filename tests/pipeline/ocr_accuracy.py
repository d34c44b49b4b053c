#!/usr/bin/python3
"""Character accuracy of an OCR pipeline on rendered images (examples/ocr/render_text.py).

  ocr_accuracy.py TWINRT PIPELINE DIR SET [--min-accuracy A] [--engine E] [--texts-out FILE]

Runs `TWINRT pipeline run PIPELINE --json` on every image of DIR/SET.json and compares the
recognized lines (in reading order, joined by newlines) with the rendered ones: character
accuracy = 1 - edit distance / characters, counted over all images, with spaces and
without them. Exits 1 when the accuracy with spaces is below --min-accuracy.
--texts-out writes the recognized text per image (JSON) so runs can be compared exactly.
"""
import argparse
import json
import os
import subprocess
import sys


def edit_distance(a, b):
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("twinrt")
    parser.add_argument("pipeline")
    parser.add_argument("dir")
    parser.add_argument("set")
    parser.add_argument("--min-accuracy", type=float, default=0.0)
    parser.add_argument("--engine", default="")
    parser.add_argument("--texts-out", default="")
    args = parser.parse_args()
    with open(os.path.join(args.dir, args.set + ".json")) as f:
        truth = json.load(f)
    errors = {"with spaces": 0, "without spaces": 0}
    chars = {"with spaces": 0, "without spaces": 0}
    texts = {}
    for name, lines in sorted(truth.items()):
        command = [args.twinrt, "pipeline", "run", args.pipeline, "--json", "--input",
                   "image_file=" + os.path.join(args.dir, name)]
        if args.engine:
            command += ["--engine", args.engine]
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0:
            print(f"{name}: twinrt exited {run.returncode}: {run.stderr.strip()}", file=sys.stderr)
            return 2
        got = json.loads(run.stdout)["outputs"]["text"]
        texts[name] = got
        expected, recognized = "\n".join(lines), "\n".join(got)
        for key, strip in (("with spaces", False), ("without spaces", True)):
            e = expected.replace(" ", "") if strip else expected
            r = recognized.replace(" ", "") if strip else recognized
            errors[key] += edit_distance(e, r)
            chars[key] += len(e)
        if expected != recognized:
            print(f"{name}: {edit_distance(expected, recognized)} edits: {got!r} for {lines!r}" if len(lines) == 1
                  else f"{name}: {edit_distance(expected, recognized)} edits over {len(lines)} lines ({len(got)} found)")
    accuracy = {k: 1 - errors[k] / max(chars[k], 1) for k in errors}
    print(f"{args.set}: {len(truth)} images, {chars['with spaces']} characters; character accuracy "
          f"{accuracy['with spaces']:.4f} with spaces, {accuracy['without spaces']:.4f} without")
    if args.texts_out:
        with open(args.texts_out, "w") as f:
            json.dump(texts, f, indent=1, ensure_ascii=False)
    if accuracy["with spaces"] < args.min_accuracy:
        print(f"below the required {args.min_accuracy}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

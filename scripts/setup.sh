#!/usr/bin/env bash
# Fresh Debian 12 → dependencies installed, twinrt built (CLI and Python package), main job run
# on a bundled model.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
bash scripts/install-python.sh
bash scripts/demo.sh
# OCR of a bundled rendered page: detector -> angle classifier -> recognizer in one
# pipeline file (examples/ocr, docs/pipelines.md); prints the text and per-stage timings.
build/twinrt pipeline run examples/ocr/ocr.json --input image_file=examples/ocr/sample_page.png

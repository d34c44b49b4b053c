#!/bin/sh
# The OCR pipeline with every model stage on ENGINE recognizes exactly the text twinrt
# recognized (DIR/twinrt_texts.json, written by the accuracy test). Skips (77) when the
# engine cannot start.
set -e
twinrt=$1 pipeline=$2 dir=$3 engine=$4
probe=$("$twinrt" pipeline run "$pipeline" --engine "$engine" --input "image_file=$dir/heldout_line_0.png" 2>&1) || {
  case "$probe" in *install*|*"cannot start"*) echo "$probe"; exit 77;; esac
  echo "$probe"; exit 1; }
/usr/bin/python3 "$(dirname "$0")/ocr_accuracy.py" "$twinrt" "$pipeline" "$dir" heldout --engine "$engine" \
  --texts-out "$dir/${engine}_texts.json"
if cmp -s "$dir/twinrt_texts.json" "$dir/${engine}_texts.json"; then
  echo "same text on twinrt and $engine"
else
  echo "the text differs between twinrt and $engine:"; diff "$dir/twinrt_texts.json" "$dir/${engine}_texts.json" || true
  exit 1
fi

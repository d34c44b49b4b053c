#!/bin/bash
# usage: model_card.sh TWINRT MODEL OUT_FILE
# `twinrt inspect --markdown` writes a model card with the contract and the owner's sections.
set -eu
twinrt=$1 model=$2 card=$3
rm -f "$card"
"$twinrt" inspect "$model" --markdown "$card" >/dev/null
for needle in "## Inputs" "## Outputs" "## Preprocessing" "## Postprocessing (kept outside the graph)" \
              "## Export versions" "$(sha256sum "$model" | cut -d' ' -f1)" "axis 0 \`batch\`" "ai.onnx 14"; do
  grep -qF -- "$needle" "$card" || { echo "model card lacks '$needle':"; cat "$card"; exit 1; }
done
echo "model card complete"

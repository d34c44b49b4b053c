#!/bin/sh
# Renders the held-out OCR set (10 lines and a 24-line page) into DIR, for the OCR tests.
# Skips (77) when python3-pil or the fonts are missing.
set -e
dir=$1
/usr/bin/python3 -c "import PIL" 2>/dev/null || { echo "python3-pil is not installed (scripts/install-deps.sh)"; exit 77; }
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || { echo "fonts-dejavu-core is not installed"; exit 77; }
rm -rf "$dir"
/usr/bin/python3 "$(dirname "$0")/../../examples/ocr/render_text.py" "$dir" --set heldout --lines 10 --page-lines 24

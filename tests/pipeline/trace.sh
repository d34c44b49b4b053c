#!/bin/sh
# --trace DIR writes every stage's values (.npy, strings as .txt) and a summary line each;
# the .npy files are read back with numpy when it is installed.
set -e
twinrt=$1 pipeline=$2 image=$3 dir=$4
rm -rf "$dir"
out=$("$twinrt" pipeline run "$pipeline" --input "image_file=$image" --trace "$dir")
echo "$out" | grep -q "^trace: det det_prob float32\[1,1,[0-9]*,[0-9]*\] min=" || { echo "no summary line for det_prob"; echo "$out"; exit 1; }
for f in 02_det.det_prob.npy 03_boxes.boxes.npy 09_rec.rec_probs.0.npy 10_decode_text.text.0.txt summary.txt; do
  [ -s "$dir/$f" ] || { echo "missing $dir/$f"; ls "$dir"; exit 1; }
done
[ "$(wc -l < "$dir/summary.txt")" -eq "$(echo "$out" | grep -c '^trace: ')" ] || { echo "summary.txt differs from the printed lines"; exit 1; }
if /usr/bin/python3 -c "import numpy" 2>/dev/null; then
  /usr/bin/python3 -c "
import numpy, sys
p = numpy.load(sys.argv[1])
assert p.dtype == numpy.float32 and p.ndim == 4 and 0 <= p.min() and p.max() <= 1, (p.dtype, p.shape)
b = numpy.load(sys.argv[2])
assert b.shape[1:] == (4, 2), b.shape
" "$dir/02_det.det_prob.npy" "$dir/03_boxes.boxes.npy"
fi
echo "trace ok: $(ls "$dir" | wc -l) files"

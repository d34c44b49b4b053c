#!/bin/sh
# --parallel on and off write the same --trace files (names and bytes) and print the same
# outputs: running a wave's stages concurrently changes nothing but the times.
set -e
twinrt=$1 pipeline=$2 input=$3 dir=$4
rm -rf "$dir" && mkdir -p "$dir"
for mode in on off; do
  "$twinrt" pipeline run "$pipeline" --input "$input" --parallel $mode --trace "$dir/$mode" > "$dir/$mode.out"
  awk '/^stage +kind/ {timings = 1} !timings' "$dir/$mode.out" > "$dir/$mode.txt"  # all but the timing table
done
diff -r "$dir/on" "$dir/off"
diff "$dir/on.txt" "$dir/off.txt"
echo "same trace: $(ls "$dir/on" | wc -l) files"

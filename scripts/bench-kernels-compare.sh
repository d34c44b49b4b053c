#!/usr/bin/env bash
# Compares two builds of the kernel benchmark (e.g. build-bench/ of two worktrees) on a noisy
# machine: runs them alternately ROUNDS times and prints each shape's best GFLOP/s per build.
# Slow phases of a shared VM last seconds, so only runs alternating within the same minutes
# compare, and the best of several is the least disturbed.
#   scripts/bench-kernels-compare.sh OLD_BENCH NEW_BENCH [FILTER] [ROUNDS]
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 OLD_BENCH NEW_BENCH [FILTER] [ROUNDS]" >&2
  exit 2
fi
old=$1 new=$2 filter=${3:-f32_gemm} rounds=${4:-5}
for _ in $(seq "$rounds"); do
  for label in old new; do
    binary=$old
    [ "$label" = new ] && binary=$new
    "$binary" --benchmark_filter="$filter" 2>/dev/null |
      awk -v label="$label" '$1 ~ /^(f32|peak)/ { for (i = 2; i <= NF; ++i) if ($i ~ /GFLOP/) { v = $i; sub(/.*=/, "", v); sub(/\/s/, "", v); print label, $1, v } }'
  done
done | awk '{ key = $2 " " $1; if (!(key in best) || $3 > best[key]) best[key] = $3 }
            END { for (key in best) print key, best[key] }' | sort -k1,1 -k2,2r | column -t

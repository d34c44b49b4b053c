#!/usr/bin/env bash
# The exact mode's promise on the ONNX backend data: every output bit-identical across the
# kernel tiers this CPU has and across thread counts. Runs the suite once per configuration
# with --digest and requires every digest file to equal the portable tier's at one thread.
set -euo pipefail
runner=$1 expect=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

configs=("scalar 1" "scalar 2")
flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
if [[ $flags == *" avx2 "* && $flags == *" fma "* ]]; then configs+=("avx2 1" "avx2 2"); fi
if [[ $flags == *" avx512f "* ]]; then configs+=("avx512 1" "avx512 2"); fi

for config in "${configs[@]}"; do
  read -r isa threads <<<"$config"
  "$runner" --mode exact --isa "$isa" --threads "$threads" --expect "$expect" \
    --digest "$work/$isa-$threads.txt" >"$work/$isa-$threads.log" || {
    cat "$work/$isa-$threads.log"; echo "exact mode failed on --isa $isa --threads $threads"; exit 1; }
done
status=0
for config in "${configs[@]:1}"; do
  read -r isa threads <<<"$config"
  if ! diff "$work/scalar-1.txt" "$work/$isa-$threads.txt" >"$work/diff.txt"; then
    echo "exact outputs differ between --isa scalar --threads 1 and --isa $isa --threads $threads:"
    head -20 "$work/diff.txt"
    status=1
  fi
done
echo "compared $(wc -l <"$work/scalar-1.txt") data sets across: ${configs[*]/%/ threads}"
exit $status

#!/bin/sh
# Builds the loader fuzzers (clang-14, ASan+UBSan+libFuzzer) in build-fuzz and runs each
# for a bounded time. Exits non-zero when a fuzzer finds a crash, leak, timeout or OOM;
# the reproducer lands in build-fuzz/fuzz-artifacts/.
#   tests/fuzz/run.sh [SECONDS_PER_TARGET]   (default 60)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${TWINRT_FUZZ_BUILD:-$root/build-fuzz}
seconds=${1:-60}
launcher=""
command -v ccache >/dev/null 2>&1 && launcher="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 -DTWINRT_FUZZ=ON \
  -DTWINRT_TESTS=ON $launcher >/dev/null
ninja -C "$build" -j"${TWINRT_FUZZ_JOBS:-1}" twinrt_fuzz_model twinrt_fuzz_value
sh "$root/tests/fuzz/make_corpus.sh" "$build/fuzz-seeds"
mkdir -p "$build/fuzz-artifacts"

status=0
for target in model value; do
  corpus="$build/fuzz-corpus/$target"
  mkdir -p "$corpus"
  echo "== fuzzing $target for ${seconds}s"
  "$build/tests/fuzz/twinrt_fuzz_$target" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=3072 -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/$target-" \
    "$corpus" "$build/fuzz-seeds/$target" || status=1
done
[ "$status" -eq 0 ] && echo "fuzz: no crashes" || echo "fuzz: FAILURES, see $build/fuzz-artifacts" >&2
exit "$status"

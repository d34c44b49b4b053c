#!/bin/sh
# Builds the fuzzers (clang-14, ASan+UBSan+libFuzzer) in build-fuzz and runs each for a
# bounded time: model (the ONNX loader), value (test-data values), graph (small generated
# graphs loaded, compiled and run) and feeds (bad feeds to valid sessions). Each starts from
# the seeds of make_corpus.sh, the kept corpus in tests/fuzz/corpus/TARGET and what earlier
# runs found (build-fuzz/fuzz-corpus/TARGET). Exits non-zero when a fuzzer finds a crash,
# leak, timeout or OOM; the reproducer lands in build-fuzz/fuzz-artifacts/.
#   tests/fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]   (default 60, every target)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${TWINRT_FUZZ_BUILD:-$root/build-fuzz}
seconds=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-model value graph feeds}
launcher=""
command -v ccache >/dev/null 2>&1 && launcher="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
export CCACHE_BASEDIR="$root"

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 -DTWINRT_FUZZ=ON \
  -DTWINRT_TESTS=ON $launcher >/dev/null
built=""
for target in $targets; do
  # twinrt_fuzz_graph needs libonnx-dev (its op schemas); without it, CMake leaves it out.
  ninja -C "$build" -t targets all | grep -q "^twinrt_fuzz_$target:" && built="$built $target"
done
ninja -C "$build" -j"${TWINRT_FUZZ_JOBS:-1}" $(for t in $built; do echo "twinrt_fuzz_$t"; done)
sh "$root/tests/fuzz/make_corpus.sh" "$build/fuzz-seeds"
mkdir -p "$build/fuzz-artifacts"

status=0
for target in $built; do
  corpus="$build/fuzz-corpus/$target"
  mkdir -p "$corpus"
  # The session fuzzers run under 1 MiB tensor limits (fuzz_support.h): a bigger
  # allocation means a size escaped the limits.
  limits=""
  case $target in graph|feeds) limits="-malloc_limit_mb=256" ;; esac
  kept=""
  [ -d "$root/tests/fuzz/corpus/$target" ] && kept="$root/tests/fuzz/corpus/$target"
  echo "== fuzzing $target for ${seconds}s"
  "$build/tests/fuzz/twinrt_fuzz_$target" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=3072 $limits -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/$target-" \
    "$corpus" "$build/fuzz-seeds/$target" $kept || status=1
done
[ "$status" -eq 0 ] && echo "fuzz: no crashes" || echo "fuzz: FAILURES, see $build/fuzz-artifacts" >&2
exit "$status"

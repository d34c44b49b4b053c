#!/usr/bin/env bash
# Undefined behaviour and memory errors can change results by platform (issue 9), so the
# suite also runs under the sanitizers (g++ 12, ccache, build dirs of their own):
#   build-asan  ASan + UBSan: the unit tests; the whole ONNX conformance suite in default,
#               reference and exact mode on every kernel tier this CPU has (about 1,070
#               data sets, a few seconds each run, so no subset is needed to cover every
#               kernel); PaddleOCR's angle classifier and recognizer against ONNX Runtime.
#   build-tsan  TSan: the tests that run work on 2 threads (thread pool, concurrent runs,
#               the kernels split across threads, concurrent arena runs) and the conformance
#               suite at --threads 2.
# Any report fails the run (UBSan does not recover; ASan and TSan exit non-zero).
#   scripts/test-sanitizers.sh [asan|tsan]...   (default: both)
set -euo pipefail
cd "$(dirname "$0")/.."
export CCACHE_BASEDIR="$PWD"
# -g1 objects: without this ccache keys them by the checkout's folder, so a clone elsewhere (CI)
# compiles them cold; the debug info then names the first folder, which only stack traces read.
export CCACHE_NOHASHDIR=1
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
expect=tests/conformance/expected_failures.txt
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

# build DIR FLAGS TARGETS...: -O1 (what the sanitizers recommend; compiles faster than -O2)
# with FLAGS added to compile and link.
build() {
  local dir=$1 flags="-O1 -g1 -fno-omit-frame-pointer $2"
  shift 2
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=None "${launcher[@]}" \
    -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" >/dev/null
  ninja -C "$dir" -j2 "$@"
}

# The kernel tiers this CPU can run (as tests/conformance/exact_identity.sh picks them).
tiers() {
  local flags
  flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
  echo scalar
  [[ $flags == *" avx2 "* && $flags == *" fma "* ]] && echo avx2
  [[ $flags == *" avx512f "* ]] && echo avx512
  return 0
}

conformance() {
  local runner=$1
  shift
  echo "== conformance $*"
  "$runner" --expect "$expect" "$@" | tail -n 2
}

asan() {
  local dir=build-asan
  build "$dir" "-fsanitize=address,undefined -fno-sanitize-recover=undefined" \
    twinrt_unit_tests twinrt_conformance twinrt_cli
  echo "== unit tests (ASan + UBSan)"
  "$dir/tests/twinrt_unit_tests" --gtest_brief=1
  local runner=$dir/tests/conformance/twinrt_conformance
  conformance "$runner" --mode default
  conformance "$runner" --mode reference
  for isa in $(tiers); do conformance "$runner" --mode exact --isa "$isa"; done
  echo "== PaddleOCR classifier and recognizer (ASan + UBSan CLI against ONNX Runtime)"
  mkdir -p "$dir/models"
  if ! TWINRT_BIN="$dir/twinrt" TWINRT_MODEL_CACHE="$dir/models" node --test \
    --test-name-pattern="PaddleOCR v2 angle classifier|PaddleOCR v4 recognizer" \
    tests/models/models.test.js >"$dir/models.log" 2>&1; then
    cat "$dir/models.log"
    exit 1
  fi
  grep -E "^# (pass|fail|skipped)" "$dir/models.log"
}

tsan() {
  local dir=build-tsan
  build "$dir" "-fsanitize=thread" twinrt_unit_tests twinrt_conformance
  echo "== concurrency tests (TSan, 2 threads)"
  "$dir/tests/twinrt_unit_tests" --gtest_brief=1 \
    --gtest_filter='*Thread*:Session.Concurrent*:ArenaSession.*:KernelsF32GemmTiles.*:PassesFusion.*:MemoryBudget*-*DeathTest*'
  conformance "$dir/tests/conformance/twinrt_conformance" --mode default --threads 2
}

for what in "${@:-asan tsan}"; do
  for w in $what; do
    case $w in
      asan) asan ;;
      tsan) tsan ;;
      *) echo "usage: scripts/test-sanitizers.sh [asan|tsan]..." >&2; exit 2 ;;
    esac
  done
done
echo "sanitizers: clean"

#!/usr/bin/env bash
# Runs every test: the fuzzers (bounded), the sanitizer builds
# (scripts/test-sanitizers.sh; TWINRT_SANITIZERS=0 skips them), then unit, CLI, crosscheck, ONNX conformance (both modes),
# real models, the hostile-input corpus and the WebAssembly package (Node, Chromium) through
# ctest, whose summary closes the output.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
# The WebAssembly variants of the npm package (js/dist/), for the js_* and browser tests.
bash scripts/build-wasm.sh
# ASan + UBSan + libFuzzer (clang-14): loader, values, generated graphs and feeds, 20 s each;
# libFuzzer's progress lines go to a log.
mkdir -p build
if ! TWINRT_FUZZ_JOBS=2 sh tests/fuzz/run.sh 20 > build/fuzz.log 2>&1; then
  tail -n 40 build/fuzz.log
  echo "fuzzing found a problem: see build/fuzz.log and build-fuzz/fuzz-artifacts/" >&2
  exit 1
fi
grep -E "^(== fuzzing|fuzz:)|Done [0-9]+ runs" build/fuzz.log || true
# ASan + UBSan and TSan builds of the unit, conformance and model tests (build-asan,
# build-tsan): two more full builds, about 23 minutes on 2 cores from a cold ccache, a few
# with a warm one.
if [ "${TWINRT_SANITIZERS:-1}" = 1 ]; then
  if ! bash scripts/test-sanitizers.sh > build/sanitizers.log 2>&1; then
    tail -n 60 build/sanitizers.log
    echo "a sanitizer found a problem: see build/sanitizers.log" >&2
    exit 1
  fi
  grep -E "^== |passed|^# (pass|fail)|sanitizers:" build/sanitizers.log || true
fi
ctest --test-dir build --output-on-failure -j2

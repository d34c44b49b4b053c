#!/usr/bin/env bash
# Runs every test: unit, CLI, conformance (both modes), real models, loader fuzzing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ctest --test-dir build --output-on-failure -j2
# The loader's fuzzers, for a bounded time (ASan + UBSan + libFuzzer, clang-14).
TWINRT_FUZZ_JOBS=2 sh tests/fuzz/run.sh 30

#!/usr/bin/env bash
# Builds and runs the kernel benchmarks (bench/): GEMM tiles of every ISA tier this CPU
# has, exact and fma, in GFLOP/s next to each tier's measured peak. Extra arguments go to
# Google Benchmark (e.g. --benchmark_filter=avx512).
set -euo pipefail
cd "$(dirname "$0")/.."
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DTWINRT_TESTS=OFF -DTWINRT_BENCH=ON \
  "${launcher[@]}" >/dev/null
ninja -C build-bench -j2 twinrt_kernel_bench
build-bench/bench/twinrt_kernel_bench --benchmark_counters_tabular=true "$@"

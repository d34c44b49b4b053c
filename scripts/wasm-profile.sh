#!/usr/bin/env bash
# Where a model's time goes in WebAssembly: per node (Session::profile) and per function
# (V8's sampling profiler over a build that keeps function names). Needs the simd build
# (bash scripts/build-wasm.sh simd). Usage: scripts/wasm-profile.sh MODEL RUNS [DIM=VALUE ...]
# To read V8's machine code of a function: node --no-experimental-fetch --print-wasm-code
# build-wasm/profile/wasm_profile.js MODEL 1 > code.txt (functions by name, TurboFan last).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: scripts/wasm-profile.sh MODEL RUNS [DIM=VALUE ...]" >&2; exit 2; }
objects=build-wasm/simd/CMakeFiles/twinrt_core.dir
[ -d "$objects" ] || { echo "no simd build in build-wasm/simd; run: bash scripts/build-wasm.sh simd" >&2; exit 2; }
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
out=build-wasm/profile
mkdir -p "$out"
mapfile -t core < <(find "$objects" -name '*.o')
em++ -O2 -msimd128 -std=c++20 --profiling-funcs -I include tools/wasm_profile/wasm_profile.cc "${core[@]}" \
  -sNODERAWFS=1 -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB -o "$out/wasm_profile.js"
model=$(realpath "$1")
shift
cd "$out"
rm -f isolate-*.log
node --no-experimental-fetch --prof wasm_profile.js "$model" "$@"
echo "functions (V8 ticks, 1 ms each; '*' marks TurboFan code), the loads included:"
node --prof-process isolate-*.log 2>/dev/null | sed -n '/\[JavaScript\]/,/\[C++\]/p' | sed -n '3,22p' | cut -c1-160

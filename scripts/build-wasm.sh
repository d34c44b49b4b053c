#!/usr/bin/env bash
# Builds twinrt's WebAssembly module (Debian's emscripten 3.1.6) and puts it in the npm
# package: build-wasm/<variant>/ (one build folder per variant) -> js/dist/<variant>/.
#   scripts/build-wasm.sh [VARIANT...]     default: all four
# Variants: simd-threaded, simd, threaded, baseline (js/lib/features.js picks one at run time).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v emcmake >/dev/null; then
  echo "build-wasm: emscripten is not installed (apt-get install emscripten node-acorn)" >&2
  exit 1
fi
# emscripten's JS optimizer needs acorn, which Debian installs under /usr/share/nodejs.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
export CCACHE_BASEDIR="$PWD"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
jobs="${TWINRT_WASM_JOBS:-2}"

variants=("$@")
[ ${#variants[@]} -eq 0 ] && variants=(simd-threaded simd threaded baseline)
for v in "${variants[@]}"; do
  case "$v" in
    simd-threaded) flags="-msimd128 -pthread"; threads=ON ;;
    simd) flags="-msimd128"; threads=OFF ;;
    threaded) flags="-pthread"; threads=ON ;;
    baseline) flags=""; threads=OFF ;;
    *) echo "build-wasm: unknown variant '$v' (simd-threaded, simd, threaded, baseline)" >&2; exit 2 ;;
  esac
  dir="build-wasm/$v"
  emcmake cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTWINRT_TESTS=OFF \
    "-DCMAKE_CXX_FLAGS=$flags" -DTWINRT_WASM_THREADS=$threads "${launcher[@]}" >/dev/null
  ninja -C "$dir" -j"$jobs" twinrt_wasm
  mkdir -p "js/dist/$v"
  rm -f "js/dist/$v"/*
  cp "$dir/js/twinrt.mjs" "$dir/js/twinrt.wasm" "js/dist/$v/"
  [ "$threads" = ON ] && cp "$dir/js/twinrt.worker.js" "js/dist/$v/"
  echo "build-wasm: $v: $(stat -c %s "js/dist/$v/twinrt.wasm") bytes of wasm"
done
# The pthread worker script is CommonJS; the package itself is ES modules.
echo '{ "type": "commonjs" }' > js/dist/package.json

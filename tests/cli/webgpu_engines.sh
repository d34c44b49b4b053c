#!/bin/bash
# usage: webgpu_engines.sh TWINRT OUT_DIR [adapter | no-adapter]
# `twinrt compare MODEL --engines twinrt-ref,twinrt-webgpu,ort-webgpu` passes the fp32
# policy on a small model (built by make_webgpu_engine_model.py), and twinrt-webgpu's
# description names its adapter, how many nodes ran on the GPU and the one that fell back.
# With no-adapter: Chromium without the WebGPU flags (chromium_without_webgpu.sh), and
# compare exits 2 naming the flags.
# Skips (77) without node, tools/node_modules, chromium, twinrt-web's build, python onnx
# or a WebGPU adapter.
set -u
twinrt=$1 out=$2
here=$(dirname "$0")
tools=$here/../../tools
chromium=${TWINRT_CHROMIUM:-/usr/bin/chromium}
command -v node >/dev/null && [ -d "$tools/node_modules/onnxruntime-web" ] || { echo "needs node and tools/node_modules"; exit 77; }
[ -x "$chromium" ] || { echo "needs chromium at $chromium"; exit 77; }
ls "$here"/../../js/dist/*/twinrt.wasm >/dev/null 2>&1 || { echo "needs twinrt-web's build (bash scripts/build-wasm.sh)"; exit 77; }
/usr/bin/python3 -c 'import onnx' 2>/dev/null || { echo "needs python3 onnx"; exit 77; }
mkdir -p "$out"
model=$out/webgpu_engines.onnx
/usr/bin/python3 "$here/make_webgpu_engine_model.py" "$model" || exit 1
if [ "${3:-}" = no-adapter ]; then
  text=$(REAL_CHROMIUM=$chromium TWINRT_CHROMIUM=$here/chromium_without_webgpu.sh TWINRT_ENGINE_TIMEOUT_S=120 \
           "$twinrt" compare "$model" --engines twinrt-ref,twinrt-webgpu 2>&1)
  code=$?
  printf '%s\n' "$text"
  [ "$code" -eq 2 ] || { echo "expected exit code 2, got $code"; exit 1; }
  grep -Eq "twinrt-webgpu: chromium offers no WebGPU adapter .*" <<<"$text" &&
    grep -q -- "--enable-unsafe-webgpu --use-webgpu-adapter=swiftshader" <<<"$text" || { echo "no adapter error"; exit 1; }
  exit 0
fi
# One Chromium per browser engine; 120 s is far beyond what this model takes.
text=$(TWINRT_ENGINE_TIMEOUT_S=120 "$twinrt" compare "$model" --engines twinrt-ref,twinrt-webgpu,ort-webgpu \
         --policy fp32 --json "$out/webgpu_engines.json" 2>&1)
code=$?
printf '%s\n' "$text"
if grep -q "offers no WebGPU adapter" <<<"$text"; then echo "skipped: chromium offers no WebGPU adapter"; exit 77; fi
[ "$code" -eq 0 ] || { echo "compare exited $code"; exit 1; }
/usr/bin/python3 - "$out/webgpu_engines.json" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))
engines = {e["name"]: e for e in r["engines"]}
assert all(e["ok"] for e in engines.values()), engines
d = engines["twinrt-webgpu"]["description"]
assert re.search(r"WebGPU in Chromium .*adapter: \S", d), d
m = re.search(r"webgpu: (\d+) of (\d+) nodes on the GPU; on wasm: Add 'int_add'$", d)
assert m and int(m.group(1)) >= 1, d
assert "onnxruntime-web" in engines["ort-webgpu"]["description"] and "WebGPU" in engines["ort-webgpu"]["description"]
assert r["passed"], "not passed"
print("webgpu engines ok:", d)
PY

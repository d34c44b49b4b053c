#!/bin/bash
# usage: bench_engines.sh TWINRT MODEL
# `twinrt bench MODEL --engines twinrt,ort` prints a row per engine with a ratio to the
# first, session creation and (for ONNX Runtime's runner) peak RSS, and --json gives the
# same figures. Skips (77) without node or onnxruntime-node.
# (Timings themselves are never pass/fail.)
set -eu
twinrt=$1 model=$2
tools=$(dirname "$0")/../../tools
command -v node >/dev/null && [ -d "$tools/node_modules/onnxruntime-node" ] || { echo "needs node and tools/node_modules"; exit 77; }
text=$("$twinrt" bench "$model" --engines twinrt,ort --runs 3)
printf '%s\n' "$text"
number='[0-9][0-9.e+-]*'
grep -Eq "^twinrt +$number +$number +$number +$number +1\.00x +$number +-  twinrt [0-9.]+ native" <<<"$text" || { echo "no twinrt row"; exit 1; }
grep -Eq "^ort +$number +$number +$number +$number +$number""x +$number +$number  onnxruntime-node 1\.30" <<<"$text" || { echo "no ort row"; exit 1; }
"$twinrt" bench "$model" --engines twinrt,ort --runs 3 --warmup 0 --json | /usr/bin/python3 -c '
import json, sys
r = json.loads(sys.stdin.read())
assert r["baseline"] == "twinrt" and r["runs"] == 3 and r["failed"] == [], r
names = [e["name"] for e in r["engines"]]
assert names == ["twinrt", "ort"], names
for e in r["engines"]:
    l = e["latency_ms"]
    assert 0 < l["min"] <= l["p50"] <= l["p90"] <= l["max"], e
assert r["engines"][0]["ratio_p50"] == 1.0, r
assert all(e["session_create_ms"] > 0 for e in r["engines"]), r
assert r["engines"][0]["peak_rss_bytes"] == -1 and r["engines"][1]["peak_rss_bytes"] > 0, r
print("bench --engines ok")
'

#!/bin/bash
# usage: bench_json.sh TWINRT MODEL
# `twinrt bench --json` prints one JSON object with every field, percentiles in order.
# (Only the shape of the report is checked: timings are never pass/fail.)
set -eu
twinrt=$1 model=$2
/usr/bin/python3 -c 'import json' 2>/dev/null || { echo "python3 missing"; exit 77; }
"$twinrt" bench "$model" --runs 5 --warmup 1 --json | /usr/bin/python3 -c '
import json, sys
lines = sys.stdin.read().strip().splitlines()
assert len(lines) == 1, "expected one line of JSON, got %d" % len(lines)
r = json.loads(lines[0])
for key in ["model", "mode", "threads", "runs", "warmup", "session_create_ms", "first_run_ms",
            "latency_ms", "runs_per_second", "peak_rss_bytes"]:
    assert key in r, "missing " + key
l = r["latency_ms"]
assert 0 <= l["min"] <= l["p50"] <= l["p90"] <= l["p99"] <= l["max"], l
assert r["runs"] == 5 and r["peak_rss_bytes"] > 0 and r["runs_per_second"] > 0, r
print("bench JSON ok")
'

# --profile: per-run node times of the timed runs; a fused node names the model nodes
# it stands for (residual_block.onnx: Conv + Add + Relu become one node).
profiled=$(dirname "$model")/residual_block.onnx
"$twinrt" bench "$profiled" --runs 4 --warmup 1 --json --profile | /usr/bin/python3 -c '
import json, sys
p = json.loads(sys.stdin.read())["profile"]
assert p["runs"] == 4, p
assert len(p["nodes"]) == 1 and p["nodes"][0]["op"] == "Conv", p
assert p["nodes"][0]["node"].count("+") == 2, p["nodes"][0]["node"]
assert p["ops"] == [{"op": "Conv", "nodes": 1, "ms_per_run": p["nodes"][0]["ms_per_run"]}], p["ops"]
assert 0 <= p["node_ms_per_run"] == p["nodes"][0]["ms_per_run"], p
print("bench --profile JSON ok")
'

#!/bin/bash
# usage: quantize_report.sh TWINRT OUT_DIR
# `twinrt quantize-report` on make_quantize_report_model.py's classifier with a dynamic, a
# static and a deliberately broken static variant (conv_b's input scale 40 times too large):
# sizes, accuracy fields, the policy verdicts, the charts and the JSON. Native engines only
# (ONNX Runtime when installed), a few runs: it takes seconds.
set -eu
twinrt=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
/usr/bin/python3 "$here/make_quantize_report_model.py" "$out"
cd "$out"
fail() { echo "FAIL: $*"; exit 1; }
"$twinrt" quantize classifier.onnx -o dynamic.onnx --dynamic >/dev/null
"$twinrt" quantize classifier.onnx -o static.onnx --static --calibrate cases >/dev/null
/usr/bin/python3 -c "import onnx, numpy as np
from onnx import numpy_helper as h
m = onnx.load('static.onnx')
for i in m.graph.initializer:
    if i.name == 'conv_a_relu_scale': i.CopyFrom(h.from_array((h.to_array(i) * 40).astype(np.float32), i.name))
onnx.save(m, 'bad_scale.onnx')"
engines=twinrt
[ "${ORT:-0}" = 1 ] && engines=twinrt,ort
code=0
"$twinrt" quantize-report classifier.onnx dynamic.onnx static.onnx bad_scale.onnx --cases cases --engines $engines \
    --runs 2 --html report.html --json report.json >report.txt 2>report.err || code=$?
cat report.txt
[ "$code" = 1 ] || { cat report.err; fail "exit code $code, expected 1 (bad_scale.onnx fails the policy)"; }
# One row per file with its size as stat sees it.
for f in dynamic.onnx static.onnx bad_scale.onnx; do
  grep -Eq "^$f +$(stat -c %s $f) " report.txt || fail "no row for $f with $(stat -c %s $f) bytes"
done
grep -Eq "^float +$(stat -c %s classifier.onnx) +100.0% " report.txt || fail "no float row"
grep -Eq "^static.onnx .* PASS +4/4$" report.txt || fail "static.onnx should pass on every case"
grep -Eq "^bad_scale.onnx .* FAIL +[0-3]/4$" report.txt || fail "bad_scale.onnx should fail the policy"
grep -q "worst layer of bad_scale.onnx: conv_b (Conv)" report.txt || fail "conv_b should be bad_scale.onnx's worst layer"
# The HTML: one chart per variant, the worst layer named.
[ "$(grep -o '<svg' report.html | wc -l)" = 3 ] || fail "expected 3 charts in report.html"
grep -q "worst layer: conv_b (Conv)" report.html || fail "report.html does not name conv_b"
# The JSON: fields present and plausible.
/usr/bin/python3 - "$engines" <<'PY' || fail "report.json"
import json, os, sys
r = json.load(open("report.json"))
v = {x["label"]: x for x in r["variants"]}
assert r["command"] == "quantize-report" and r["cases"] == 4 and r["policy"] == "int8", r
assert list(v) == ["float", "dynamic.onnx", "static.onnx", "bad_scale.onnx"], list(v)
for label, x in v.items():
    path = "classifier.onnx" if label == "float" else label
    assert x["bytes"] == os.path.getsize(path), (label, x["bytes"])
    assert set(x["latency_p50_ms"]) == set(sys.argv[1].split(",")), x["latency_p50_ms"]
    assert all(ms > 0 for ms in x["latency_p50_ms"].values()), x["latency_p50_ms"]
    a = x["accuracy"][0]
    assert a["output"] == "logits" and {"top1_agreement", "cosine", "max_abs", "sqnr_db", "passed"} <= set(a), a
f, s, b = v["float"]["accuracy"][0], v["static.onnx"]["accuracy"][0], v["bad_scale.onnx"]["accuracy"][0]
assert f["max_abs"] == 0 and abs(f["cosine"] - 1) < 1e-12 and f["top1_agreement"] == 1 and f["passed"], f
assert v["float"]["pass_share"] == 1 and v["float"]["layers"] == [], v["float"]
assert s["passed"] and s["cosine"] > 0.999 and v["static.onnx"]["pass_share"] == 1, s
assert not b["passed"] and b["cosine"] < s["cosine"] and b["sqnr_db"] < s["sqnr_db"], (b, s)
assert v["bad_scale.onnx"]["pass_share"] < 1 and v["bad_scale.onnx"]["worst_layer"] == "conv_b", v["bad_scale.onnx"]
assert {"node", "op", "rmse_relative", "added"} <= set(v["static.onnx"]["layers"][0]), v["static.onnx"]["layers"][0]
PY
# --make writes the three variants itself, from the same inputs.
"$twinrt" quantize-report classifier.onnx --make fp16,dynamic,static --cases cases --engines twinrt --runs 1 >make.txt 2>&1 ||
  { cat make.txt; fail "--make"; }
for k in fp16 dynamic static; do grep -Eq "^classifier_$k.onnx .* PASS +4/4$" make.txt || { cat make.txt; fail "--make $k"; }; done
# A model that is not a variant of the float one: exit 2, naming what is missing.
code=0
"$twinrt" quantize-report classifier.onnx "$here/data/residual_block.onnx" --cases cases >mismatch.txt 2>&1 || code=$?
[ "$code" = 2 ] && grep -q "is not a variant of classifier.onnx: it has no input x float32\[1,3,16,16\]" mismatch.txt ||
  { cat mismatch.txt; fail "a mismatched variant should exit 2 (got $code)"; }
echo "quantize-report: OK"

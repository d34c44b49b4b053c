#!/bin/bash
# usage: quantize_options.sh TWINRT OUT_DIR PART
# The effect of quantize's calibration and search options on small generated models
# (make_quantize_models.py). PART: entropy | search | activations | fp16 | progress. When onnxruntime-node is
# installed (ORT=1 in the environment), the written models must also match ONNX Runtime.
set -eu
twinrt=$1 out=$2 part=$3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
/usr/bin/python3 "$here/make_quantize_models.py" "$out"
cd "$out"
fail() { echo "FAIL: $*"; exit 1; }
# The scalar scale initializer NAME of MODEL.
scale() { /usr/bin/python3 -c "import onnx, sys; from onnx import numpy_helper as h
print(float(h.to_array(next(i for i in onnx.load(sys.argv[1]).graph.initializer if i.name == sys.argv[2]))))" "$1" "$2"; }
matches_ort() {
  [ "${ORT:-0}" = 1 ] || return 0
  "$twinrt" compare "$1" --engines twinrt,ort --cases cases --policy int8 >ort.log 2>&1 || { cat ort.log; fail "$1 vs ONNX Runtime"; }
  grep -q "result: PASS" ort.log || { cat ort.log; fail "$1 vs ONNX Runtime"; }
}

case $part in
entropy)
  for m in minmax entropy; do "$twinrt" quantize outlier.onnx -o "o_$m.onnx" --static --calibrate cases --method $m >/dev/null; done
  # x is N(0, 1) with outliers up to 50: minmax keeps them, entropy clips near the bulk.
  mm=$(scale o_minmax.onnx x_scale) en=$(scale o_entropy.onnx x_scale)
  /usr/bin/python3 -c "import sys; mm, en = map(float, sys.argv[1:]); sys.exit(not (en < mm / 4 and en * 255 / 2 > 2.0))" "$mm" "$en" ||
    fail "x_scale minmax $mm, entropy $en: expected entropy < minmax/4 and a range beyond 2 sigma"
  matches_ort o_entropy.onnx
  echo "x_scale minmax $mm > entropy $en"
  ;;
search)
  "$twinrt" quantize sensitive.onnx -o s.onnx --static --calibrate cases --target 1 --policy regression >search.log 2>&1 ||
    { cat search.log; fail "search exit code"; }
  cat search.log
  grep -q "search step 0: in float: none; accuracy 0 " search.log || fail "the full quantization should fail the policy"
  grep -q "search: target 1 met after 1 step" search.log || fail "the target should be met after one step"
  grep -q "kept in float by the search: 'conv_b_sensitive': sensitivity rank 1 of 3" search.log || fail "conv_b_sensitive should stay float"
  # The written file: conv_b_sensitive reads float weights, the others dequantized ones.
  /usr/bin/python3 -c "import onnx, sys
g = onnx.load('s.onnx').graph
w = {n.name: n.input[1] for n in g.node if n.op_type == 'Conv'}
sys.exit(not (w['conv_b_sensitive'] == 'conv_b_sensitive_w' and all(v.endswith('_dequantized') for k, v in w.items() if k != 'conv_b_sensitive')))" ||
    fail "s.onnx: only conv_b_sensitive should keep float weights"
  "$twinrt" compare sensitive.onnx s.onnx --cases cases --policy regression >check.log 2>&1 || { cat check.log; fail "s.onnx fails the policy"; }
  matches_ort s.onnx
  # A target out of reach within the steps: exit 1, the best step written.
  code=0
  "$twinrt" quantize sensitive.onnx -o s_fp32.onnx --static --calibrate cases --target 1 --policy fp32 --max-steps 1 \
      >unmet.log 2>&1 || code=$?
  [ "$code" = 1 ] && grep -q "search: target 1 NOT met after 1 step" unmet.log && [ -s s_fp32.onnx ] ||
    { cat unmet.log; fail "an unmet target should exit 1 (got $code) and still write the model"; }
  ;;
activations)
  # int8 activations (asymmetric: a Relu output starts at -128) and symmetric ones.
  "$twinrt" quantize outlier.onnx -o a_s8.onnx --static --calibrate cases --activation-type int8 >/dev/null
  "$twinrt" quantize outlier.onnx -o a_s8_sym.onnx --static --calibrate cases --activation-type int8 --symmetric >/dev/null
  "$twinrt" quantize outlier.onnx -o a_u8_sym.onnx --static --calibrate cases --symmetric >/dev/null
  /usr/bin/python3 -c "import onnx, sys
from onnx import numpy_helper as h
def zeros(f):
    return {i.name: h.to_array(i) for i in onnx.load(f).graph.initializer if i.name.endswith('_zero_point') and not i.name.endswith('_w_zero_point') and not i.name.endswith('_b_zero_point')}
s8, s8s, u8s = zeros('a_s8.onnx'), zeros('a_s8_sym.onnx'), zeros('a_u8_sym.onnx')
ok = all(z.dtype.name == 'int8' for z in list(s8.values()) + list(s8s.values())) and s8['conv_a_relu_zero_point'] == -128
ok = ok and all(z == 0 for z in s8s.values()) and all(z.dtype.name == 'uint8' and z == 128 for z in u8s.values())
sys.exit(not ok or print(s8, s8s, u8s))" || fail "activation zero points"
  for m in a_s8 a_s8_sym a_u8_sym; do matches_ort $m.onnx; done
  ;;
fp16)
  # Values beyond 65504 on the calibration inputs: without them the float16 model gives
  # inf/NaN; with them the nodes touching those values stay float32 and the model passes.
  "$twinrt" quantize overflow.onnx -o ov_plain.onnx --fp16 --keep-io-types >/dev/null
  "$twinrt" quantize overflow.onnx -o ov_isl.onnx --fp16 --keep-io-types --calibrate cases_overflow >isl.log
  cat isl.log
  for n in "'square' (Mul)" "'mean' (ReduceMean)" "'root' (Sqrt)" "'scale_up' (Mul)" "'softmax' (Softmax)"; do
    grep -qF "kept in float: node $n: kept in float32" isl.log || fail "$n should stay float32"
  done
  ! grep -q "'relu'\|'scale_down'" isl.log || fail "the small path should be float16"
  ! "$twinrt" compare overflow.onnx ov_plain.onnx --cases cases_overflow --policy fp16 >plain.log 2>&1 ||
    fail "the plain float16 model should fail: $(cat plain.log)"
  "$twinrt" compare overflow.onnx ov_isl.onnx --cases cases_overflow --policy fp16 >isl_cmp.log 2>&1 ||
    { cat isl_cmp.log; fail "the float16 model with islands fails the fp16 policy"; }
  if [ "${ORT:-0}" = 1 ]; then
    "$twinrt" compare ov_isl.onnx --engines twinrt,ort --cases cases_overflow --policy fp16 >ort.log 2>&1 ||
      { cat ort.log; fail "ov_isl.onnx vs ONNX Runtime"; }
  fi
  ;;
progress)
  # No bar unless asked (stderr is not a terminal here), a bar with --progress.
  "$twinrt" quantize sensitive.onnx -o p.onnx --static --calibrate cases >quiet.log 2>&1
  ! grep -q "quantize \[" quiet.log || fail "a bar without --progress: $(cat quiet.log)"
  "$twinrt" quantize sensitive.onnx -o p.onnx --static --calibrate cases --target 1 --policy regression --progress >bar.log 2>&1
  grep -q "quantize \[#*\] calibration 4/4 runs" bar.log || fail "no calibration bar: $(cat bar.log)"
  grep -q "quantize \[#*\] sensitivity 3/3 nodes" bar.log || fail "no search bar: $(cat bar.log)"
  ;;
*) fail "unknown part $part" ;;
esac
echo "quantize $part: ok"

#!/bin/bash
# usage: outputs_match_expected.sh TWINRT CASE_DIR OUT_DIR [MODE]
# Runs `twinrt run CASE_DIR/model.onnx --test-data CASE_DIR/test_data_set_0 --out OUT_DIR`
# and checks every output_<i>.npy against test_data_set_0/output_<i>.pb with the
# conformance tolerance (|a-b| <= 1e-7 + 1e-3*|b|; exact for integers and bool).
# NumPy and the onnx Python package read the files: an oracle independent of twinrt.
set -eu
twinrt=$1 case_dir=$2 out_dir=$3 mode=${4:-default}
/usr/bin/python3 -c 'import numpy, onnx' 2>/dev/null || { echo "python3-numpy/python3-onnx missing"; exit 77; }
rm -rf "$out_dir"
"$twinrt" run "$case_dir/model.onnx" --test-data "$case_dir/test_data_set_0" --out "$out_dir" --mode "$mode"
/usr/bin/python3 - "$case_dir/test_data_set_0" "$out_dir" <<'PY'
import glob, os, sys
import numpy as np
from onnx import TensorProto, numpy_helper

data_dir, out_dir = sys.argv[1:]
expected_files = sorted(glob.glob(os.path.join(data_dir, "output_*.pb")))
assert expected_files, "no expected outputs in " + data_dir
for path in expected_files:
    index = os.path.basename(path)[len("output_"):-len(".pb")]
    want = TensorProto()
    with open(path, "rb") as f:
        want.ParseFromString(f.read())
    want = numpy_helper.to_array(want)
    got = np.load(os.path.join(out_dir, "output_%s.npy" % index))
    assert got.dtype == want.dtype, "output %s: dtype %s, expected %s" % (index, got.dtype, want.dtype)
    assert got.shape == want.shape, "output %s: shape %s, expected %s" % (index, got.shape, want.shape)
    if np.issubdtype(want.dtype, np.floating):
        ok = np.abs(got.astype(np.float64) - want) <= 1e-7 + 1e-3 * np.abs(want.astype(np.float64))
        ok |= np.isnan(got) & np.isnan(want)
        assert ok.all(), "output %s differs beyond tolerance" % index
    else:
        assert (got == want).all(), "output %s differs" % index
    print("output %s matches %s" % (index, path))
PY

#!/bin/sh
# Seeds the loader fuzzers with small real files from libonnx-testdata.
# The graph and feed fuzzers read their bytes through FuzzedDataProvider, so any bytes are
# seeds for them: slices of the same files (their kept corpora in tests/fuzz/corpus/ matter more).
#   make_corpus.sh OUT_DIR   -> OUT_DIR/model (model.onnx files), OUT_DIR/value (.pb files),
#                               OUT_DIR/graph, OUT_DIR/feeds
set -eu
out=${1:?usage: make_corpus.sh OUT_DIR}
data=${TWINRT_ONNX_TESTDATA:-/usr/share/libonnx-testdata/data}
mkdir -p "$out/model" "$out/value" "$out/graph" "$out/feeds"
if [ ! -d "$data" ]; then
  echo "make_corpus.sh: no test data at $data; fuzzing starts from an empty corpus" >&2
  exit 0
fi
# Models: a spread of small files, including subgraphs (If/Loop/Scan), sequences,
# optionals, typed-field initializers and strings. Test names become file names.
for test in test_add test_conv_with_strides_padding test_if test_loop11 test_scan9_sum \
            test_sequence_insert_at_back test_optional_get_element_sequence test_cast_FLOAT_to_STRING \
            test_constant test_constantofshape_int_zeros test_reshape_extended_dims test_lstm_defaults \
            test_resize_upsample_scales_linear test_strnormalizer_export_monday_casesensintive_lower \
            test_range_float_type_positive_delta_expanded test_split_zero_size_splits \
            test_optional_has_element_empty test_loop16_seq_none; do
  src="$data/node/$test"
  [ -f "$src/model.onnx" ] || continue
  cp "$src/model.onnx" "$out/model/$test.onnx"
  for pb in "$src"/test_data_set_0/*.pb; do
    [ -f "$pb" ] && cp "$pb" "$out/value/${test}_$(basename "$pb")"
  done
done
# A few whole-network models from the simple suite, kept small.
find "$data/simple" -name model.onnx -size -8k | sort | head -n 8 | while read -r m; do
  cp "$m" "$out/model/simple_$(basename "$(dirname "$m")").onnx"
done
for f in "$out"/model/test_*.onnx; do
  name=$(basename "$f" .onnx)
  head -c 96 "$f" > "$out/graph/$name"
  tail -c 64 "$f" > "$out/feeds/$name"
done
echo "corpus: $(ls "$out/model" | wc -l) models, $(ls "$out/value" | wc -l) values," \
  "$(ls "$out/graph" | wc -l) graph and $(ls "$out/feeds" | wc -l) feed seeds in $out"

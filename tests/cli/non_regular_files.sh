#!/bin/bash
# usage: non_regular_files.sh TWINRT DATA_DIR
# A FIFO or a symlink to /dev/zero given as a model, as external data or as an input
# (.npy, .pb, --image) is refused at once with exit code 2 and a message saying what it
# is: never a hang (FIFO) or a read until memory runs out (/dev/zero).
set -u
twinrt=$1 data=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkfifo "$work/fifo.onnx" "$work/fifo.npy"
ln -s /dev/zero "$work/zero.pb"
ln -s /dev/zero "$work/zero.png"
mkdir "$work/model"
cp "$data/external_add.onnx" "$work/model/"
mkfifo "$work/model/external_add.bin"
failures=0
expect_refused() {  # PATTERN ARGS...
  local pattern=$1
  shift
  output=$(timeout 20 "$twinrt" "$@" 2>&1)
  code=$?
  if [ "$code" -ne 2 ] || ! grep -Eq -- "$pattern" <<<"$output"; then
    echo "FAIL (exit $code): twinrt $*"; echo "$output"; failures=$((failures + 1))
  fi
}
expect_refused "is a FIFO" run "$work/fifo.onnx"
expect_refused "external_add.bin' is a FIFO" run "$work/model/external_add.onnx"
expect_refused "is a FIFO" run "$data/symbolic_add.onnx" --input "x=$work/fifo.npy"
expect_refused "is a character device" run "$data/symbolic_add.onnx" --input "x=$work/zero.pb"
expect_refused "is a character device" compare "$data/symbolic_add.onnx" --engines twinrt,twinrt-ref \
  --image "$work/zero.png" --preprocess nchw,float32
[ "$failures" -eq 0 ] && echo "every non-regular file was refused"
exit "$failures"

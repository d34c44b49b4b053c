#!/bin/bash
# usage: inspect_confined.sh TWINRT MODEL
# MODEL's tensors are stored inline but carry external_data entries naming /etc/shadow and
# ../../etc/passwd. `inspect` must succeed and read, hash or print none of those files.
set -u
output=$("$1" inspect "$2" 2>&1)
code=$?
[ "$code" -eq 0 ] || { echo "inspect exited $code:"; echo "$output"; exit 1; }
if grep -Eq "shadow|passwd|external data:" <<<"$output"; then
  echo "inspect reported a file outside the model's folder:"; echo "$output"; exit 1
fi
echo "nothing outside the model's folder was read"

#!/bin/bash
# usage: inspect_hashes.sh TWINRT MODEL [EXTERNAL_FILE...]
# Checks that `twinrt inspect` reports the sha256 that sha256sum computes for the model
# and for each named external-data file (given relative to the model's folder).
set -eu
twinrt=$1 model=$2
shift 2
output=$("$twinrt" inspect "$model")
want=$(sha256sum "$model" | cut -d' ' -f1)
grep -qx "sha256: $want" <<<"$output" || { echo "model hash $want not in:"; echo "$output"; exit 1; }
for location in "$@"; do
  want=$(sha256sum "$(dirname "$model")/$location" | cut -d' ' -f1)
  grep -Eq "^external data: $location \(.*\) sha256 $want\$" <<<"$output" ||
    { echo "external data hash $want of $location not in:"; echo "$output"; exit 1; }
done
echo "hashes match"
